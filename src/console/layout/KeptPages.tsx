import {
  Activity,
  type ReactElement,
  type RefObject,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { observer } from 'mobx-react-lite';
import { useMatches, useOutlet } from 'react-router-dom';
import { type RouteHandle } from '../routeHandle';
import { useStores } from '../useStores';

/** How many pages left by their tab stay mounted besides the current one, the latest seen. */
export const KEPT_PAGES = 8;

/**
 * The page of the current route, and the pages of the other open tabs kept mounted but hidden
 * (the visited and cached views of the tabs), so a filter typed or a page of a list chosen is still
 * there when the user comes back by the tab. Only tabs in the store's cached views are kept:
 * closing a tab or refreshing it drops its page, and noCache routes are never kept.
 */
export const KeptPages = observer(function KeptPages() {
  const { tabs } = useStores();
  const outlet = useOutlet();
  const handle = useMatches().at(-1)?.handle as RouteHandle | undefined;
  const current = handle?.fullPath;
  // Where the page shown goes. Not state: a ref set in render would loop when the Suspense
  // above hides and shows this part again (the ref is detached and attached each time).
  const host = useRef<HTMLDivElement>(null);
  // Each kept page's element as last rendered (its route context with it), latest seen last.
  const kept = useRef(new Map<string, ReactElement>());
  const map = kept.current;
  if (current && outlet) {
    map.delete(current);
    map.set(current, outlet);
  }
  const cached = new Set(tabs.cachedViews);
  for (const path of [...map.keys()]) {
    if (path !== current && !cached.has(path)) map.delete(path);
  }
  while (map.size > KEPT_PAGES + 1) map.delete(map.keys().next().value!);
  if (!current || !outlet) return outlet;
  // The host comes before the pages: its ref is set before their layout effects run.
  return (
    <>
      <div ref={host} className="roost-kept-pages" />
      {[...map.entries()].map(([path, element]) => (
        <KeptPage key={path} host={host} visible={path === current}>
          {element}
        </KeptPage>
      ))}
    </>
  );
});

/**
 * One page, rendered into its own element that is in the document only while it is shown:
 * a hidden page keeps its state (React's Activity also stops its effects: no polls, no
 * subscriptions) but is no part of the document, so nothing finds it twice by its test id or
 * its label, and no Tab reaches it.
 */
function KeptPage(props: {
  host: RefObject<HTMLElement | null>;
  visible: boolean;
  children: ReactElement;
}) {
  const { host, visible, children } = props;
  const [box] = useState(() => {
    const element = document.createElement('div');
    element.className = 'roost-kept-page';
    return element;
  });
  useLayoutEffect(() => {
    if (!visible) return;
    host.current?.appendChild(box);
    return () => box.remove();
  }, [host, box, visible]);
  return createPortal(<Activity mode={visible ? 'visible' : 'hidden'}>{children}</Activity>, box);
}
