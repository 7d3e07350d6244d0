import { CurrentSilences } from './CurrentSilences';
import { ApiClient, type ApiText } from '../api/client';
import { SystemStore } from './admin/SystemStore';
import { AlarmStore } from './AlarmStore';
import { AlarmsTodayStore } from './AlarmsTodayStore';
import { ConfigStore } from './ConfigStore';
import { EnvControlStore } from './EnvControlStore';
import { HousesStore } from './HousesStore';
import { LiveStore } from './LiveStore';
import { type CookieJar } from './cookies';
import { PermissionStore, type RouteRule } from './PermissionStore';
import { RemindersStore } from './RemindersStore';
import { SessionStore } from './SessionStore';
import { TabsStore } from './TabsStore';
import { UiStore, type UiEnvironment } from './UiStore';

/** What the stores need from the page they run in; tests pass fakes. */
export interface RootEnvironment {
  cookies: CookieJar;
  ui: UiEnvironment;
  /** Translates the client's own texts. */
  text(key: ApiText): string;
  /** The shared error toast (5 s). */
  showError(message: string): void;
  /** Whether the current page is /login. */
  onLoginPage(): boolean;
  /** After a lost session: tell the user `message` on the next page and reload . */
  reloadSignedOut(message: string): void;
  fetch?: typeof fetch;
}

/** Wires every store of the console; `R` is the console's route type. */
export class RootStore<R extends RouteRule = RouteRule> {
  readonly api: ApiClient;
  readonly ui: UiStore;
  readonly session: SessionStore;
  readonly tabs: TabsStore;
  readonly permission: PermissionStore<R>;
  readonly config: ConfigStore;
  readonly alarms: AlarmStore;
  /** The silences in force now: a house card marks an alarm one holds. */
  readonly silences: CurrentSilences;
  readonly alarmsToday: AlarmsTodayStore;
  readonly houses: HousesStore;
  readonly live: LiveStore;
  /** System management's shared lists and changes. */
  readonly system: SystemStore;
  /** The day's reminders of every kind. */
  readonly reminders: RemindersStore;
  /** House Setting: one house's gateway, parameters and live command states. */
  readonly envcontrol: EnvControlStore;

  constructor(routes: readonly R[], environment: RootEnvironment) {
    this.ui = new UiStore(environment.cookies, environment.ui);
    this.api = new ApiClient({
      token: () => this.session.token,
      locale: () => this.ui.language,
      text: (key) => environment.text(key),
      showError: (message) => environment.showError(message),
      onLoginPage: () => environment.onLoginPage(),
      signedOut: (message) => {
        this.signOutLocally();
        environment.reloadSignedOut(message);
      },
      requestStarted: () => this.ui.requestStarted(),
      requestEnded: () => this.ui.requestEnded(),
      fetch: environment.fetch,
    });
    this.session = new SessionStore(environment.cookies, this.api);
    this.tabs = new TabsStore();
    this.permission = new PermissionStore(routes);
    this.config = new ConfigStore(this.api);
    this.alarms = new AlarmStore();
    this.silences = new CurrentSilences(this.api);
    this.alarmsToday = new AlarmsTodayStore(this.api, this.alarms);
    this.houses = new HousesStore();
    this.live = new LiveStore();
    this.system = new SystemStore(this.api);
    this.reminders = new RemindersStore(this.api);
    this.envcontrol = new EnvControlStore(this.api);
  }

  /** Logs out locally: credentials, role, routes, tabs and counts are all forgotten. */
  signOutLocally(): void {
    this.session.clear();
    this.permission.reset();
    this.tabs.reset();
    this.alarms.reset();
    this.silences.clear();
    this.houses.clear();
    this.system.reset();
    this.reminders.reset();
    this.envcontrol.reset();
  }

  /** POST /api/logout, then the same local sign-out. */
  async logout(): Promise<void> {
    await this.session.logout();
    this.signOutLocally();
  }
}
