import type { FlockPeriod } from '../../simulator/houseModel';
import type { DemoGateway } from '../seed';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * What came before each demo house's open flock, as a farmer would expect to find in the
 * records. Broilers go all-in/all-out: a flock is sold at 42 days and the house is cleaned and
 * disinfected for two weeks before the next day-old chicks arrive. Layers move in as pullets
 * at 16 weeks and stay until about 77 weeks; the house then stands empty three weeks. So a
 * house whose flock came recently shows an empty house and, before it, the previous flock.
 */
const CYCLE = {
  broiler: { endAge: 43, emptyDays: 14 },
  layer: { endAge: 540, emptyDays: 21 },
} as const;

/** The house's flocks from before `fromMs` up to its open flock, oldest first. */
export function flockTimeline(gateway: DemoGateway, fromMs: number): FlockPeriod[] {
  const { endAge, emptyDays } = CYCLE[gateway.breed];
  const open: FlockPeriod = {
    placedOn: gateway.placedOn,
    ageAtPlacement: gateway.ageAtPlacement,
    headCount: gateway.headCount,
    closedMs: null,
  };
  const flocks = [open];
  let placedMs = Date.parse(`${gateway.placedOn}T00:00:00Z`);
  for (let n = 1; placedMs > fromMs; n += 1) {
    const closedMs = placedMs - emptyDays * DAY_MS;
    placedMs = closedMs - (endAge - gateway.ageAtPlacement) * DAY_MS;
    flocks.unshift({
      placedOn: isoDate(placedMs),
      ageAtPlacement: gateway.ageAtPlacement,
      // Flock sizes vary a little from one placement to the next.
      headCount: Math.round((gateway.headCount * (1 - 0.03 * (n % 3))) / 100) * 100,
      closedMs,
    });
  }
  return flocks;
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
