import { autorun, createAtom } from 'mobx';

/**
 * An atom nothing ever changes, observed for the life of the page: its `reportObserved()` then
 * answers, by MobX's public contract, whether a derivation (a reaction, a computed, an
 * observer's render) is running now: true inside one, false in an action or a plain function.
 * The permanent observer is what makes the answer not depend on whether anything else happens
 * to observe the atom at that moment. tests/stores/tracking.test.ts holds MobX to it.
 */
const probe = createAtom('derivation probe');
autorun(() => probe.reportObserved());

/**
 * Whether the read in progress is tracked: a store may then skip making and reporting its own
 * atoms for reads that subscribe nothing (a tally of every house in an action, say).
 */
export function isTracking(): boolean {
  return probe.reportObserved();
}
