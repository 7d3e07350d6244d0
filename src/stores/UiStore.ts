import { makeAutoObservable } from 'mobx';
import { normaliseLocale, type Locale } from '../contract/envelope';
import { type CookieJar } from './cookies';

/** The device is mobile when the body is narrower than this (width − 1 < 992). */
export const MOBILE_BREAKPOINT_PX = 992;

export const SIDEBAR_COOKIE = 'sidebarStatus';
export const LANGUAGE_COOKIE = 'language';
export const SIZE_COOKIE = 'size';

/**
 * The settings panel's switches, each remembered per browser in a cookie of its own ('1' or
 * '0'). Their defaults are the console as it was before the panel: tabs, a header that stays
 * on top while the page scrolls, and the logo at the top of the sidebar.
 */
export const LAYOUT_SETTINGS = {
  tabsView: { cookie: 'tagsView', default: true },
  fixedHeader: { cookie: 'fixedHeader', default: true },
  sidebarLogo: { cookie: 'sidebarLogo', default: true },
} as const;
export type LayoutSetting = keyof typeof LAYOUT_SETTINGS;

export type Device = 'desktop' | 'mobile';
export const SIZES = ['large', 'medium', 'small'] as const;
export type Size = (typeof SIZES)[number];

/** The language: the cookie, else a browser language containing en or zh, else English. */
export function initialLanguage(
  cookie: string | undefined,
  browserLanguages: readonly string[],
): Locale {
  if (cookie === 'en' || cookie === 'zh') return cookie;
  for (const language of browserLanguages) {
    const lower = language.toLowerCase();
    if (lower.includes('zh')) return 'zh';
    if (lower.includes('en')) return 'en';
  }
  return 'en';
}

export function deviceFor(bodyWidthPx: number): Device {
  return bodyWidthPx - 1 < MOBILE_BREAKPOINT_PX ? 'mobile' : 'desktop';
}

export interface UiEnvironment {
  /** `navigator.languages` (most preferred first). */
  browserLanguages: readonly string[];
  /** `document.body` width at start. */
  bodyWidthPx: number;
}

/** Client state: sidebar, device, language, size, and the requests in flight. */
export class UiStore {
  sidebarOpened: boolean;
  device: Device;
  language: Locale;
  size: Size;
  settings: Record<LayoutSetting, boolean>;
  /** Requests in flight and route loads, for the progress bar. */
  pendingRequests = 0;

  constructor(
    private readonly cookies: CookieJar,
    environment: UiEnvironment,
  ) {
    const sidebar = cookies.get(SIDEBAR_COOKIE);
    this.sidebarOpened = sidebar === undefined ? true : sidebar === '1';
    this.language = initialLanguage(cookies.get(LANGUAGE_COOKIE), environment.browserLanguages);
    const size = cookies.get(SIZE_COOKIE);
    this.size = (SIZES as readonly string[]).includes(size ?? '') ? (size as Size) : 'medium';
    this.settings = {
      tabsView: this.setting(cookies, 'tabsView'),
      fixedHeader: this.setting(cookies, 'fixedHeader'),
      sidebarLogo: this.setting(cookies, 'sidebarLogo'),
    };
    this.device = 'desktop';
    makeAutoObservable<UiStore, 'cookies'>(this, { cookies: false });
    this.evaluateDevice(environment.bodyWidthPx, false);
  }

  get isMobile(): boolean {
    return this.device === 'mobile';
  }

  get busy(): boolean {
    return this.pendingRequests > 0;
  }

  toggleSidebar(): void {
    this.setSidebar(!this.sidebarOpened);
  }

  closeSidebar(): void {
    this.setSidebar(false);
  }

  private setSidebar(opened: boolean): void {
    this.sidebarOpened = opened;
    this.cookies.set(SIDEBAR_COOKIE, opened ? '1' : '0');
  }

  /** Re-evaluates the device on start and on resize; a hidden page keeps its state. */
  evaluateDevice(bodyWidthPx: number, pageHidden: boolean): void {
    if (pageHidden) return;
    this.device = deviceFor(bodyWidthPx);
    if (this.device === 'mobile' && this.sidebarOpened) this.closeSidebar();
  }

  /** Navigating while mobile closes the sidebar. */
  handleNavigation(): void {
    if (this.device === 'mobile' && this.sidebarOpened) this.closeSidebar();
  }

  setLanguage(language: string): void {
    this.language = normaliseLocale(language);
    this.cookies.set(LANGUAGE_COOKIE, this.language);
  }

  setSize(size: Size): void {
    this.size = size;
    this.cookies.set(SIZE_COOKIE, size);
  }

  setSetting(setting: LayoutSetting, on: boolean): void {
    this.settings[setting] = on;
    this.cookies.set(LAYOUT_SETTINGS[setting].cookie, on ? '1' : '0');
  }

  private setting(cookies: CookieJar, setting: LayoutSetting): boolean {
    const value = cookies.get(LAYOUT_SETTINGS[setting].cookie);
    return value === undefined ? LAYOUT_SETTINGS[setting].default : value === '1';
  }

  requestStarted(): void {
    this.pendingRequests += 1;
  }

  requestEnded(): void {
    this.pendingRequests = Math.max(0, this.pendingRequests - 1);
  }
}
