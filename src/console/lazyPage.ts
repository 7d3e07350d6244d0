import { lazy, type ComponentType } from 'react';
import { type LazyPage } from './routeTypes';

/** `React.lazy` of a module's named page export, with a `preload` the router can start early. */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loading: Promise<M> | null = null;
  const preload = (): Promise<M> => {
    loading ??= load().catch((error: unknown) => {
      // A failed chunk (server restarted, network down) may be fetched again on the next try.
      loading = null;
      throw error;
    });
    return loading;
  };
  return Object.assign(
    lazy(() => preload().then((module) => ({ default: pick(module) }))),
    { preload },
  );
}
