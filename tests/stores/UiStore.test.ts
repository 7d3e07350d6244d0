import { describe, expect, it } from 'vitest';
import { MemoryCookieJar } from '../../src/stores/cookies';
import { deviceFor, initialLanguage, UiStore } from '../../src/stores/UiStore';

const ui = (cookies: Record<string, string> = {}, width = 1280, languages = ['en-US']) => {
  const jar = new MemoryCookieJar(cookies);
  return { jar, store: new UiStore(jar, { browserLanguages: languages, bodyWidthPx: width }) };
};

describe('UiStore', () => {
  it('is mobile when the body width minus one is under 992 px', () => {
    expect(deviceFor(992)).toBe('mobile');
    expect(deviceFor(993)).toBe('desktop');
    expect(deviceFor(390)).toBe('mobile');
  });

  it('starts with the sidebar open on a desktop and closed (and remembered) on a phone', () => {
    expect(ui({}, 1280).store.sidebarOpened).toBe(true);
    const phone = ui({}, 390);
    expect(phone.store.sidebarOpened).toBe(false);
    expect(phone.store.device).toBe('mobile');
    expect(phone.jar.get('sidebarStatus')).toBe('0');
  });

  it('starts at medium size with tabs, a fixed header and the sidebar logo, and remembers each change', () => {
    const { jar, store } = ui();
    expect(store.size).toBe('medium');
    expect(store.settings).toEqual({ tabsView: true, fixedHeader: true, sidebarLogo: true });
    store.setSize('large');
    store.setSetting('tabsView', false);
    store.setSetting('sidebarLogo', false);
    expect([jar.get('size'), jar.get('tagsView'), jar.get('sidebarLogo')]).toEqual([
      'large',
      '0',
      '0',
    ]);
    const again = ui(
      Object.fromEntries(
        ['size', 'tagsView', 'fixedHeader', 'sidebarLogo'].flatMap((k) =>
          jar.get(k) === undefined ? [] : [[k, jar.get(k)!]],
        ),
      ),
    );
    expect(again.store.size).toBe('large');
    expect(again.store.settings).toEqual({
      tabsView: false,
      fixedHeader: true,
      sidebarLogo: false,
    });
    expect(ui({ size: 'huge' }).store.size).toBe('medium');
  });

  it('remembers the sidebar in the sidebarStatus cookie', () => {
    const { jar, store } = ui({ sidebarStatus: '0' });
    expect(store.sidebarOpened).toBe(false);
    store.toggleSidebar();
    expect(jar.get('sidebarStatus')).toBe('1');
    store.toggleSidebar();
    expect(jar.get('sidebarStatus')).toBe('0');
  });

  it('closes the sidebar when the window becomes narrow, but not while the page is hidden', () => {
    const { store } = ui({}, 1280);
    store.evaluateDevice(800, true);
    expect(store.device).toBe('desktop');
    expect(store.sidebarOpened).toBe(true);
    store.evaluateDevice(800, false);
    expect(store.device).toBe('mobile');
    expect(store.sidebarOpened).toBe(false);
  });

  it('closes the sidebar on navigation while mobile only', () => {
    const desktop = ui({}, 1280).store;
    desktop.handleNavigation();
    expect(desktop.sidebarOpened).toBe(true);
    const phone = ui({}, 390).store;
    phone.toggleSidebar();
    expect(phone.sidebarOpened).toBe(true);
    phone.handleNavigation();
    expect(phone.sidebarOpened).toBe(false);
  });

  it('takes the language from the cookie, else the browser, else English', () => {
    expect(initialLanguage('zh', ['en-US'])).toBe('zh');
    expect(initialLanguage(undefined, ['zh-CN'])).toBe('zh');
    expect(initialLanguage(undefined, ['en-GB'])).toBe('en');
    expect(initialLanguage(undefined, ['fr-FR', 'de'])).toBe('en');
    expect(initialLanguage('fr', ['zh-TW'])).toBe('zh');
  });

  it('keeps a language switch in the language cookie', () => {
    const { jar, store } = ui();
    store.setLanguage('zh');
    expect(store.language).toBe('zh');
    expect(jar.get('language')).toBe('zh');
  });

  it('defaults the size to medium and remembers a change', () => {
    const { jar, store } = ui();
    expect(store.size).toBe('medium');
    store.setSize('small');
    expect(jar.get('size')).toBe('small');
    expect(ui({ size: 'large' }).store.size).toBe('large');
  });
});
