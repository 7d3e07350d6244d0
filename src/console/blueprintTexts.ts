import { type TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Blueprint names some of its own buttons for screen readers in English, with no prop to change
 * them: a dialog's, a drawer's and a toast's close button, a tag's remove button, a numeric
 * input's arrows, the spinner. A Chinese reader heard "Close". These are their texts, by the
 * English Blueprint writes.
 */
const BLUEPRINT_LABELS = {
  Close: 'common.close',
  'Remove tag': 'common.removeTag',
  increment: 'common.increment',
  decrement: 'common.decrement',
  loading: 'common.loading',
} as const;
type BlueprintLabel = keyof typeof BLUEPRINT_LABELS;

const isBlueprintLabel = (text: string | null): text is BlueprintLabel =>
  text !== null && Object.hasOwn(BLUEPRINT_LABELS, text);

/** Blueprint's original label, kept on the element so a change of language starts from it. */
const ORIGINAL = 'data-roost-label';

function relabel(root: Element, t: TFunction): void {
  const elements = [root, ...root.querySelectorAll('[aria-label]')];
  for (const element of elements) {
    const original = element.getAttribute(ORIGINAL) ?? element.getAttribute('aria-label');
    if (!isBlueprintLabel(original)) continue;
    element.setAttribute(ORIGINAL, original);
    const text = t(BLUEPRINT_LABELS[original]);
    if (element.getAttribute('aria-label') !== text) element.setAttribute('aria-label', text);
  }
}

/** Keeps Blueprint's built-in screen-reader labels in the console's language. */
export function useBlueprintTexts(): void {
  const { t, i18n } = useTranslation();
  useEffect(() => {
    relabel(document.body, t);
    // Dialogs and toasts mount in portals under <body>, at any time.
    const observer = new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes') {
          if (record.target instanceof Element) relabel(record.target, t);
        } else {
          for (const node of record.addedNodes) if (node instanceof Element) relabel(node, t);
        }
      }
    });
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-label'],
    });
    return () => observer.disconnect();
  }, [t, i18n.language]);
}
