import { adminEn } from './features/admin';
import { alarmsEn } from './features/alarms';
import { envcontrolEn } from './features/envcontrol';
import { devicesEn } from './features/devices';
import { housesEn } from './features/houses';
import { productionEn } from './features/production';
import { remindersEn } from './features/reminders';
import { apiReferenceEn } from './features/apiReference';
import { notifyEn } from './features/notify';
import { wallEn } from './features/wall';
import { formsEn } from './features/forms';
import { edgeEn } from './features/edge';
import { gatewayOpsEn } from './features/gatewayOps';

/**
 * English texts of the console. This object defines the keys: `zh.ts` must have the same shape
 * (checked by its type and by tests/i18n), and `t()` refuses unknown keys (i18next.d.ts).
 * Interpolation uses `{{name}}`.
 */
export const en = {
  app: {
    title: 'IoT data management platform',
    name: 'Roost',
    skipToContent: 'Skip to content',
  },
  route: {
    login: 'Sign in',
    notFound: 'Page not found',
    dashboard: 'Home',
    houseStatus: 'House Status',
    houseOverview: 'House Overview',
    houseMonitor: 'House Monitor',
    houseCompared: 'House Compared',
    envControl: 'House Setting',
    ai6000: 'AI6000 dashboard',
    log: 'User Log',
    system: 'System Manage',
    orgManage: 'Org Manage',
    userManage: 'User Manage',
    farmManage: 'Farm Manage',
    poultryManage: 'Breed Manage',
    apiReference: 'API Reference',
    wallFrame: 'Alarm Overview',
    redirect: 'Refreshing',
    screen: 'Alarm screen',
    alarm: 'Alarms',
    alarmList: 'Alarm List',
    alarmSettings: 'Alarm Settings',
    notifySilences: 'Silences',
    notifyEscalation: 'Escalation',
    notifyPrefs: 'My Notifications',
    notifyDrills: 'Alarm Drills',
    production: 'Daily Business',
    productionInput: 'Data Input',
    productionFlocks: 'Flocks and KPIs',
    productionPower: 'Power Management',
    productionTariff: 'Electricity Tariff',
    houseManage: 'Shack Manage',
  },
  navbar: {
    toggleSidebar: 'Show or hide the menu',
    home: 'Go to the home page',
    alarms: 'Active alarms: {{count}}. Open the house overview',
    fullscreen: 'Full screen',
    exitFullscreen: 'Exit full screen',
    fullscreenUnsupported: 'you browser can not work',
    language: 'Language',
    switchLanguageSuccess: 'Switch Language Success',
    userMenu: 'Account',
    changePassword: 'Change password',
    logout: 'Log out',
  },
  settings: {
    open: 'Settings',
    title: 'Settings',
    size: 'Size',
    sizes: { small: 'Small', medium: 'Medium', large: 'Large' },
    tabsView: 'Show open pages as tabs',
    fixedHeader: 'Keep the header on top while scrolling',
    sidebarLogo: 'Show the logo in the menu',
    remembered: 'Remembered in this browser.',
  },
  sidebar: {
    label: 'Main menu',
  },
  tabs: {
    label: 'Open pages',
    refresh: 'Refresh',
    close: 'Close',
    closeOthers: 'Close others',
    closeAll: 'Close all',
    closeTab: 'Close {{title}}',
  },
  login: {
    heading: 'Sign in',
    subtitle: 'Monitor your houses, gateways and alarms in one place.',
    username: 'User name',
    password: 'Password',
    code: 'Verification code',
    captchaAlt: 'Verification code image',
    captchaReplace: 'Click the image for a new code',
    captchaUnavailable: 'No code: click to retry',
    submit: 'Sign in',
    usernameRequired: 'Enter your user name.',
    passwordTooShort: 'The password has at least {{min}} characters.',
    codeRequired: 'Enter the verification code.',
    failed: 'Login failed, please try again',
    verificationFailed: 'Verification failed, please login again',
    roleIncorrect: 'getInfo: user role incorrect',
    demoHint: 'Demo: sign in as admin, company, area, farm or shack with the password Roost12345.',
    language: 'Language',
  },
  password: {
    title: 'Change password',
    oldPassword: 'Old password',
    newPassword: 'New password',
    confirmPassword: 'Confirm new password',
    oldRequired: 'Enter the old password.',
    required: 'Enter the new password.',
    complexity:
      'The password needs at least {{min}} characters with a lowercase letter, an uppercase letter and a digit.',
    confirmRequired: 'Enter the new password again.',
    notSame: 'The passwords are not the same.',
    rule: 'At least {{min}} characters, with a lowercase letter, an uppercase letter and a digit.',
    submit: 'Change password',
    confirmTitle: 'Change the password?',
    confirmText: 'You stay signed in here; your other sign-ins end and need the new password.',
    confirm: 'Change it',
    success: 'Password changed.',
  },
  common: {
    cancel: 'Cancel',
    close: 'Close',
    removeTag: 'Remove',
    increment: 'Increase',
    decrement: 'Decrease',
    loading: 'Loading',
  },
  api: {
    network: 'The server cannot be reached. Check the connection and try again.',
    timeout: 'The server did not answer within 10 seconds. Please try again.',
    badAnswer: 'The server sent an answer the console does not understand.',
  },
  errors: {
    title: 'This page could not be opened',
    description: 'Something went wrong while loading it. Reloading usually helps.',
    reload: 'Reload',
  },
  notFound: {
    title: 'This page does not exist',
    description: 'The address may be mistyped, or the page is not available to your role.',
    home: 'Back to home',
  },
  houses: housesEn,
  alarms: alarmsEn,
  devices: devicesEn,
  admin: adminEn,
  wall: wallEn,
  reminders: remindersEn,
  apiReference: apiReferenceEn,
  production: productionEn,
  notify: notifyEn,
  envcontrol: envcontrolEn,
  forms: formsEn,
  gatewayOps: gatewayOpsEn,
  edge: edgeEn,
} as const;
