import {
  ClipboardIcon,
  CodeIcon,
  BuildIcon,
  CogIcon,
  DollarIcon,
  DashboardIcon,
  ComparisonIcon,
  EditIcon,
  HistoryIcon,
  HomeIcon,
  LightningIcon,
  NotificationsIcon,
  NotificationsSnoozeIcon,
  NotificationsUpdatedIcon,
  LayersIcon,
  ConfirmIcon,
  OfficeIcon,
  PeopleIcon,
  PhoneIcon,
  PulseIcon,
  SettingsIcon,
  ShopIcon,
  TemperatureIcon,
  ThIcon,
  TimelineLineChartIcon,
  TreeIcon,
  WarningSignIcon,
} from '@blueprintjs/icons';
import { lazyPage } from './lazyPage';
import { NOT_FOUND_PATH, SCREEN_PATH } from './paths';
import { type ConsoleRoute } from './routeTypes';

export {
  HOME_PATH,
  LOGIN_PATH,
  NOT_FOUND_PATH,
  REDIRECT_PREFIX,
  ROOT_REDIRECT,
  SCREEN_PATH,
} from './paths';

/** /system is for these four roles; its children narrow it further. */
const SYSTEM_ROLES = ['administrator', 'company_manager', 'area_manager', 'farm_manager'] as const;

/** The console's routes inside the layout, in menu order. */
export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  {
    path: '/dashboard',
    titleKey: 'dashboard',
    icon: HomeIcon,
    affix: true,
    component: lazyPage(
      () => import('./dashboard/DashboardPage'),
      (m) => m.DashboardPage,
    ),
  },
  {
    path: '/shack/status',
    titleKey: 'houseStatus',
    icon: ShopIcon,
    children: [
      {
        path: 'overview',
        titleKey: 'houseOverview',
        icon: ThIcon,
        component: lazyPage(
          () => import('./houses/OverviewPage'),
          (m) => m.OverviewPage,
        ),
      },
      {
        path: 'monitor',
        titleKey: 'houseMonitor',
        icon: PulseIcon,
        component: lazyPage(
          () => import('./houses/MonitorPage'),
          (m) => m.MonitorPage,
        ),
      },
      {
        path: 'compared',
        titleKey: 'houseCompared',
        icon: ComparisonIcon,
        component: lazyPage(
          () => import('./houses/ComparisonPage'),
          (m) => m.ComparisonPage,
        ),
      },
    ],
  },
  {
    path: '/shack/manage',
    titleKey: 'houseManage',
    icon: BuildIcon,
    component: lazyPage(
      () => import('./devices/HouseManagePage'),
      (m) => m.HouseManagePage,
    ),
  },
  {
    path: '/envcontrol/index',
    titleKey: 'envControl',
    icon: TemperatureIcon,
    component: lazyPage(
      () => import('./envcontrol/EnvControlPage'),
      (m) => m.EnvControlPage,
    ),
  },
  {
    path: '/envcontrol/ai6000',
    titleKey: 'ai6000',
    icon: DashboardIcon,
    hidden: true,
    component: lazyPage(
      () => import('./envcontrol/Ai6000Page'),
      (m) => m.Ai6000Page,
    ),
  },
  {
    path: '/log/index',
    titleKey: 'log',
    icon: HistoryIcon,
    component: lazyPage(
      () => import('./log/LogPage'),
      (m) => m.LogPage,
    ),
  },
  {
    path: '/alarm',
    titleKey: 'alarm',
    icon: WarningSignIcon,
    children: [
      {
        path: 'list',
        titleKey: 'alarmList',
        icon: NotificationsIcon,
        component: lazyPage(
          () => import('./alarms/AlarmListPage'),
          (m) => m.AlarmListPage,
        ),
      },
      {
        path: 'settings',
        titleKey: 'alarmSettings',
        icon: PhoneIcon,
        component: lazyPage(
          () => import('./alarms/AlarmSettingsPage'),
          (m) => m.AlarmSettingsPage,
        ),
      },
      {
        path: 'silences',
        titleKey: 'notifySilences',
        icon: NotificationsSnoozeIcon,
        component: lazyPage(
          () => import('./notify/SilencesPage'),
          (m) => m.SilencesPage,
        ),
      },
      {
        path: 'escalation',
        titleKey: 'notifyEscalation',
        icon: LayersIcon,
        component: lazyPage(
          () => import('./notify/EscalationPage'),
          (m) => m.EscalationPage,
        ),
      },
      {
        path: 'preferences',
        titleKey: 'notifyPrefs',
        icon: NotificationsUpdatedIcon,
        component: lazyPage(
          () => import('./notify/PrefsPage'),
          (m) => m.PrefsPage,
        ),
      },
      {
        path: 'drills',
        titleKey: 'notifyDrills',
        icon: ConfirmIcon,
        roles: ['administrator'],
        component: lazyPage(
          () => import('./notify/DrillsPage'),
          (m) => m.DrillsPage,
        ),
      },
    ],
  },
  {
    path: '/production',
    titleKey: 'production',
    icon: ClipboardIcon,
    children: [
      {
        path: 'input',
        titleKey: 'productionInput',
        icon: EditIcon,
        component: lazyPage(
          () => import('./production/DataInputPage'),
          (m) => m.DataInputPage,
        ),
      },
      {
        path: 'flocks',
        titleKey: 'productionFlocks',
        icon: TimelineLineChartIcon,
        component: lazyPage(
          () => import('./production/FlocksPage'),
          (m) => m.FlocksPage,
        ),
      },
      {
        path: 'power',
        titleKey: 'productionPower',
        icon: LightningIcon,
        component: lazyPage(
          () => import('./production/PowerPage'),
          (m) => m.PowerPage,
        ),
      },
      {
        path: 'tariff',
        titleKey: 'productionTariff',
        icon: DollarIcon,
        roles: ['administrator', 'company_manager'],
        component: lazyPage(
          () => import('./production/TariffPage'),
          (m) => m.TariffPage,
        ),
      },
    ],
  },
  {
    path: '/system',
    titleKey: 'system',
    icon: CogIcon,
    roles: SYSTEM_ROLES,
    children: [
      {
        path: 'org',
        titleKey: 'orgManage',
        icon: OfficeIcon,
        roles: ['administrator'],
        component: lazyPage(
          () => import('./system/OrgPage'),
          (m) => m.OrgPage,
        ),
      },
      {
        path: 'user',
        titleKey: 'userManage',
        icon: PeopleIcon,
        roles: SYSTEM_ROLES,
        component: lazyPage(
          () => import('./system/UserPage'),
          (m) => m.UserPage,
        ),
      },
      {
        path: 'farm',
        titleKey: 'farmManage',
        icon: TreeIcon,
        roles: ['administrator', 'company_manager'],
        component: lazyPage(
          () => import('./system/FarmPage'),
          (m) => m.FarmPage,
        ),
      },
      {
        path: 'poultry',
        titleKey: 'poultryManage',
        icon: SettingsIcon,
        roles: ['administrator', 'company_manager'],
        component: lazyPage(
          () => import('./system/PoultryPage'),
          (m) => m.PoultryPage,
        ),
      },
      {
        path: 'api',
        titleKey: 'apiReference',
        icon: CodeIcon,
        roles: ['administrator'],
        component: lazyPage(
          () => import('./system/api/ApiPage'),
          (m) => m.ApiPage,
        ),
      },
    ],
  },
  {
    path: '/alarmOverview/index',
    titleKey: 'wallFrame',
    icon: NotificationsIcon,
    roles: ['administrator'],
    flag: 'alarmScreen',
    component: lazyPage(
      () => import('./wall/WallFramePage'),
      (m) => m.WallFramePage,
    ),
  },
  {
    path: NOT_FOUND_PATH,
    titleKey: 'notFound',
    hidden: true,
    noTab: true,
    noCache: true,
    component: lazyPage(
      () => import('./pages/NotFoundPage'),
      (m) => m.NotFoundPage,
    ),
  },
];

/** The wall screen the alarm overview embeds; outside the console layout. */
export const SCREEN_ROUTE: ConsoleRoute = {
  path: SCREEN_PATH,
  titleKey: 'screen',
  hidden: true,
  roles: ['administrator'],
  flag: 'alarmScreen',
  component: lazyPage(
    () => import('./wall/WallPage'),
    (m) => m.WallPage,
  ),
};

/** Every route of the table, for route generation: the console's and the screen. */
export const ROUTE_TABLE: readonly ConsoleRoute[] = [...CONSOLE_ROUTES, SCREEN_ROUTE];
