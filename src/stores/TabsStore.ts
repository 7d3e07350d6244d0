import { makeAutoObservable } from 'mobx';

/** A visited view: one tab of the strip. */
export interface TabView {
  /** The route's path: a tab's identity. */
  path: string;
  /** The path with its query, where the tab leads. */
  fullPath: string;
  /** i18n key of its title. */
  titleKey: string;
  /** Affixed tabs cannot be closed. */
  affix: boolean;
  /** Views flagged no-cache are never cached. */
  noCache: boolean;
}

/** Where to go when nothing else is open. */
export const HOME_PATH = '/';

/** The tab strip: visited views and cached views. */
export class TabsStore {
  visitedViews: TabView[] = [];
  /** Paths of views whose state is kept while they are not shown. */
  cachedViews: string[] = [];

  constructor() {
    makeAutoObservable(this);
  }

  /** Puts the affixed views first, before anything is visited. */
  initAffixViews(views: readonly TabView[]): void {
    for (const view of views) if (view.affix) this.addView(view);
  }

  addView(view: TabView): void {
    const existing = this.visitedViews.find((v) => v.path === view.path);
    if (existing) {
      existing.fullPath = view.fullPath;
      existing.titleKey = view.titleKey;
    } else {
      this.visitedViews.push({ ...view });
    }
    if (!view.noCache && !this.cachedViews.includes(view.path)) this.cachedViews.push(view.path);
  }

  /** Closes one tab; affixed tabs stay. Returns whether it was closed. */
  delView(path: string): boolean {
    const view = this.visitedViews.find((v) => v.path === path);
    if (!view || view.affix) return false;
    this.visitedViews = this.visitedViews.filter((v) => v.path !== path);
    this.delCachedView(path);
    return true;
  }

  /** Forgets a view's kept state, so its next render starts afresh (tab refresh). */
  delCachedView(path: string): void {
    this.cachedViews = this.cachedViews.filter((p) => p !== path);
  }

  /** Closes every tab but this one and the affixed ones. */
  delOthersViews(path: string): void {
    this.visitedViews = this.visitedViews.filter((v) => v.affix || v.path === path);
    const kept = new Set(this.visitedViews.map((v) => v.path));
    this.cachedViews = this.cachedViews.filter((p) => kept.has(p));
  }

  /** Closes every tab but the affixed ones. */
  delAllViews(): void {
    this.visitedViews = this.visitedViews.filter((v) => v.affix);
    const kept = new Set(this.visitedViews.map((v) => v.path));
    this.cachedViews = this.cachedViews.filter((p) => kept.has(p));
  }

  /** Where to go after the active tab was closed: the last remaining tab, else home. */
  lastViewPath(): string {
    return this.visitedViews.at(-1)?.fullPath ?? HOME_PATH;
  }

  isOpen(path: string): boolean {
    return this.visitedViews.some((v) => v.path === path);
  }

  reset(): void {
    this.visitedViews = [];
    this.cachedViews = [];
  }
}
