import { describe, expect, it } from 'vitest';
import { TabsStore, type TabView } from '../../src/stores/TabsStore';

const view = (path: string, extra: Partial<TabView> = {}): TabView => ({
  path,
  fullPath: path,
  titleKey: path.slice(1),
  affix: false,
  noCache: false,
  ...extra,
});

function opened(): TabsStore {
  const tabs = new TabsStore();
  tabs.initAffixViews([view('/dashboard', { affix: true }), view('/not-affixed')]);
  tabs.addView(view('/a'));
  tabs.addView(view('/b', { noCache: true }));
  tabs.addView(view('/c'));
  return tabs;
}

const paths = (tabs: TabsStore) => tabs.visitedViews.map((v) => v.path);

describe('TabsStore', () => {
  it('puts affixed views first and adds each visited view once', () => {
    const tabs = opened();
    tabs.addView(view('/a', { fullPath: '/a?x=1' }));
    expect(paths(tabs)).toEqual(['/dashboard', '/a', '/b', '/c']);
    expect(tabs.visitedViews[1]?.fullPath).toBe('/a?x=1');
  });

  it('never caches a no-cache view', () => {
    expect(opened().cachedViews).toEqual(['/dashboard', '/a', '/c']);
  });

  it('closes one view but never an affixed one', () => {
    const tabs = opened();
    expect(tabs.delView('/b')).toBe(true);
    expect(tabs.delView('/dashboard')).toBe(false);
    expect(paths(tabs)).toEqual(['/dashboard', '/a', '/c']);
  });

  it('closes the others, keeping the affixed ones', () => {
    const tabs = opened();
    tabs.delOthersViews('/b');
    expect(paths(tabs)).toEqual(['/dashboard', '/b']);
    expect(tabs.cachedViews).toEqual(['/dashboard']);
  });

  it('closes all but the affixed ones', () => {
    const tabs = opened();
    tabs.delAllViews();
    expect(paths(tabs)).toEqual(['/dashboard']);
  });

  it('goes to the last remaining tab after a close, else home', () => {
    const tabs = opened();
    tabs.delView('/c');
    expect(tabs.lastViewPath()).toBe('/b');
    const empty = new TabsStore();
    expect(empty.lastViewPath()).toBe('/');
  });

  it('forgets the cached state of a refreshed view but keeps its tab', () => {
    const tabs = opened();
    tabs.delCachedView('/a');
    expect(tabs.cachedViews).toEqual(['/dashboard', '/c']);
    expect(tabs.isOpen('/a')).toBe(true);
  });
});
