import { type ComponentType, type LazyExoticComponent } from 'react';
import { type SVGIconProps } from '@blueprintjs/icons';
import { type RoleKey } from '../contract/roles';
import { type RouteRule } from '../stores/PermissionStore';
import { type en } from '../i18n/en';

export type RouteTitleKey = keyof (typeof en)['route'];

/** A page loaded on first use; `preload` fetches its code ahead (while the router navigates). */
export type LazyPage = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * One entry of the console's route table: the sidebar, the guard and the router
 * all read it, so they cannot disagree.
 */
export interface ConsoleRoute extends RouteRule {
  /** Absolute for top-level entries, relative for children. */
  path: string;
  /** i18n key under `route.`: the menu entry, the tab and the document title. */
  titleKey?: RouteTitleKey;
  /** Static icon component of the menu entry. */
  icon?: ComponentType<SVGIconProps>;
  roles?: readonly RoleKey[];
  component?: LazyPage;
  /** Not in the menu (it may still have a tab, as AI6000 opened from House Setting has). */
  hidden?: boolean;
  /** Never a tab of the strip: sign-in, the redirect of a tab refresh, 404. */
  noTab?: boolean;
  /** An affixed tab that cannot be closed. */
  affix?: boolean;
  /** Never kept in the cached views. */
  noCache?: boolean;
  children?: readonly ConsoleRoute[];
}
