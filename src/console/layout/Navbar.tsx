import {
  Button,
  Intent,
  Menu,
  MenuDivider,
  MenuItem,
  PopoverNext,
  type PopoverNextPositioningStrategy,
  Tag,
} from '@blueprintjs/core';
import {
  CaretDownIcon,
  CogIcon,
  FullscreenIcon,
  KeyIcon,
  LogOutIcon,
  MenuClosedIcon,
  MenuOpenIcon,
  MinimizeIcon,
  NotificationsIcon,
  TickIcon,
  TranslateIcon,
  UserIcon,
} from '@blueprintjs/icons';
import { observer } from 'mobx-react-lite';
import { type RefObject, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { type Locale } from '../../contract/envelope';
import { loginPathFor } from '../guard';
import { findRoute } from '../routeLookup';
import { HOME_PATH } from '../routes';
import { NOTIFICATION_MS, showSuccessToast, showToast } from '../toaster';
import { useStores } from '../useStores';
import { BrandMark } from './BrandMark';

/** The alarm badge opens the house overview. */
const ALARM_TARGET = '/shack/status/overview';

/** Each language named in itself (中文 / English). */
export const LANGUAGE_NAMES: Record<Locale, string> = { zh: '中文', en: 'English' };

function useFullscreen(): [boolean, () => void] {
  const { t } = useTranslation();
  const [fullscreen, setFullscreen] = useState(() => document.fullscreenElement != null);
  useEffect(() => {
    const handleChange = () => setFullscreen(document.fullscreenElement != null);
    document.addEventListener('fullscreenchange', handleChange);
    return () => document.removeEventListener('fullscreenchange', handleChange);
  }, []);
  const toggle = () => {
    if (!document.fullscreenEnabled) {
      showToast({
        message: t('navbar.fullscreenUnsupported'),
        intent: Intent.WARNING,
        timeoutMs: NOTIFICATION_MS,
      });
      return;
    }
    const change = document.fullscreenElement
      ? document.exitFullscreen()
      : document.documentElement.requestFullscreen();
    change.catch(() =>
      showToast({
        message: t('navbar.fullscreenUnsupported'),
        intent: Intent.WARNING,
        timeoutMs: NOTIFICATION_MS,
      }),
    );
  };
  return [fullscreen, toggle];
}

const AlarmBadge = observer(function AlarmBadge() {
  const { alarms } = useStores();
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (alarms.activeCount <= 0) return null;
  // The number is every open alarm; red while someone still has to answer one, like
  // the wall screen's pulsing farms, and orange once all are acknowledged but not yet cleared.
  const waiting = Math.min(alarms.unacknowledgedCount, alarms.activeCount);
  const label =
    waiting > 0
      ? t('alarms.badge.waiting', { count: alarms.activeCount, waiting })
      : t('alarms.badge.allAcknowledged', { count: alarms.activeCount });
  return (
    <Button
      variant="minimal"
      className="roost-alarm-badge"
      data-testid="alarm-badge"
      data-unacknowledged={waiting}
      aria-label={label}
      title={label}
      icon={<NotificationsIcon />}
      onClick={() => void navigate(ALARM_TARGET)}
    >
      <Tag intent={waiting > 0 ? Intent.DANGER : Intent.WARNING} round>
        {alarms.activeCount > 99 ? '99+' : alarms.activeCount}
      </Tag>
    </Button>
  );
});

export interface LanguageMenuProps {
  /** Shows only the icon (narrow screens). */
  compact?: boolean;
  /** How the menu is placed: 'fixed' under a button in a fixed header (see Navbar). */
  positioning?: PopoverNextPositioningStrategy;
}

/** The language switch: 中文 / English, remembered in the `language` cookie. */
export const LanguageMenu = observer(function LanguageMenu({
  compact = false,
  positioning = 'absolute',
}: LanguageMenuProps) {
  const { ui } = useStores();
  const { t, i18n } = useTranslation();
  const choose = (language: Locale) => {
    ui.setLanguage(language);
    void i18n
      .changeLanguage(language)
      .then(() => showSuccessToast(i18n.t('navbar.switchLanguageSuccess')));
  };
  const menu = (
    <Menu data-testid="language-menu">
      {(['zh', 'en'] as const).map((language) => (
        <MenuItem
          key={language}
          text={LANGUAGE_NAMES[language]}
          data-testid={`language-${language}`}
          disabled={ui.language === language}
          labelElement={ui.language === language ? <TickIcon /> : undefined}
          onClick={() => choose(language)}
        />
      ))}
    </Menu>
  );
  return (
    <PopoverNext
      content={menu}
      placement="bottom-end"
      arrow={false}
      positioningStrategy={positioning}
    >
      <Button
        variant="minimal"
        icon={<TranslateIcon />}
        endIcon={compact ? undefined : <CaretDownIcon />}
        text={compact ? undefined : LANGUAGE_NAMES[ui.language]}
        // The name starts with the text shown (WCAG 2.5.3), so "English" said aloud finds it.
        aria-label={
          compact ? t('navbar.language') : `${LANGUAGE_NAMES[ui.language]}, ${t('navbar.language')}`
        }
        title={t('navbar.language')}
        data-testid="language-switch"
      />
    </PopoverNext>
  );
});

/** The current page's title, after its menu group's (the top bar's title). */
function PageTitle() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const resolved = findRoute(pathname);
  const keys = resolved
    ? [...resolved.parents, resolved.route].flatMap((r) => (r.titleKey ? [r.titleKey] : []))
    : [];
  if (keys.length === 0) return null;
  return (
    <h1 className="roost-navbar__title" data-testid="page-title">
      {keys.map((key, index) => (
        <span key={key} className={index < keys.length - 1 ? 'roost-navbar__crumb' : undefined}>
          {t(`route.${key}`)}
        </span>
      ))}
    </h1>
  );
}

export interface NavbarProps {
  /** Opens the change password dialog. */
  onChangePassword: () => void;
  /** Opens the settings panel. */
  onSettings: () => void;
  /** The menu (hamburger) button, where focus returns when the mobile menu closes. */
  menuButtonRef: RefObject<HTMLButtonElement | null>;
  /** The account button, where focus returns when a dialog opened from its menu closes. */
  userButtonRef: RefObject<HTMLButtonElement | null>;
}

/**
 * The top bar: sidebar toggle, logo, page title, alarm badge, full screen, language, settings
 * and user menu.
 */
export const Navbar = observer(function Navbar({
  onChangePassword,
  onSettings,
  menuButtonRef,
  userButtonRef,
}: NavbarProps) {
  const stores = useStores();
  const { ui, session } = stores;
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [fullscreen, toggleFullscreen] = useFullscreen();
  // A menu under a button of the fixed header is placed against the window, as the button is.
  // Placed in the page ('absolute'), it moved with every scroll of the page and came back only
  // when its position was worked out again a frame later: a click in between (the page scrolled
  // to show the item, say) went to whatever lay under the menu's old place.
  const positioning = ui.settings.fixedHeader ? 'fixed' : 'absolute';

  const handleLogout = async () => {
    const from = `${location.pathname}${location.search}`;
    try {
      await stores.logout();
    } finally {
      // The credentials are gone whatever failed on the way: without this navigation the page
      // would stay where it is, signed out, until the next click.
      await navigate(loginPathFor(from), { replace: true });
    }
  };

  const userMenu = (
    <Menu data-testid="user-menu-items">
      <MenuItem
        icon={<KeyIcon />}
        text={t('navbar.changePassword')}
        data-testid="menu-change-password"
        onClick={onChangePassword}
      />
      <MenuDivider />
      <MenuItem
        icon={<LogOutIcon />}
        text={t('navbar.logout')}
        data-testid="menu-logout"
        onClick={() => void handleLogout()}
      />
    </Menu>
  );

  return (
    <div className="roost-navbar" data-testid="navbar">
      <Button
        variant="minimal"
        icon={ui.sidebarOpened ? <MenuClosedIcon /> : <MenuOpenIcon />}
        aria-label={t('navbar.toggleSidebar')}
        title={t('navbar.toggleSidebar')}
        aria-expanded={ui.sidebarOpened}
        ref={menuButtonRef}
        data-testid="hamburger"
        onClick={() => ui.toggleSidebar()}
      />
      <Link
        to={HOME_PATH}
        className="roost-navbar__brand"
        title={t('navbar.home')}
        data-testid="navbar-home"
      >
        <BrandMark logo={session.logo} alt={session.orgName || t('app.name')} />
      </Link>
      <PageTitle />
      <div className="roost-navbar__spacer" />
      <AlarmBadge />
      <Button
        variant="minimal"
        icon={fullscreen ? <MinimizeIcon /> : <FullscreenIcon />}
        aria-label={fullscreen ? t('navbar.exitFullscreen') : t('navbar.fullscreen')}
        title={fullscreen ? t('navbar.exitFullscreen') : t('navbar.fullscreen')}
        data-testid="fullscreen"
        onClick={toggleFullscreen}
      />
      <LanguageMenu compact={ui.isMobile} positioning={positioning} />
      <Button
        variant="minimal"
        icon={<CogIcon />}
        aria-label={t('settings.open')}
        title={t('settings.open')}
        data-testid="settings"
        onClick={onSettings}
      />
      {/* Its items open a dialog or leave: focus handed back to this button when the menu's
          close animation ends (300 ms) would pull it out of the change password dialog just
          opened, and keys typed then (Escape, the old password) would miss the dialog. Escape
          on the menu itself still returns focus here (Blueprint does that regardless). */}
      <PopoverNext
        content={userMenu}
        placement="bottom-end"
        arrow={false}
        shouldReturnFocusOnClose={false}
        positioningStrategy={positioning}
      >
        <Button
          variant="minimal"
          icon={<UserIcon />}
          endIcon={ui.isMobile ? undefined : <CaretDownIcon />}
          // The name starts with the user's name, which the button shows (WCAG 2.5.3).
          aria-label={`${session.name}, ${t('navbar.userMenu')}`}
          ref={userButtonRef}
          data-testid="user-menu"
        >
          <span className="roost-navbar__user">{session.name}</span>
        </Button>
      </PopoverNext>
    </div>
  );
});
