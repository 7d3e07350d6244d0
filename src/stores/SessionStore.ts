import { makeAutoObservable, runInAction } from 'mobx';
import { type ApiClient } from '../api/client';
import { fetchCurrentUser, fetchOrgLogo, signIn, signOut } from '../api/endpoints';
import {
  TOKEN_COOKIE,
  CREDENTIAL_COOKIE_MAX_AGE_S,
  USER_ID_COOKIE,
  currentUserSchema,
  type CurrentUser,
  type LoginRequest,
} from '../contract/auth';
import { MAP_TYPES, type MapType } from '../contract/domain';
import { isRoleKey, type RoleKey } from '../contract/roles';
import { type CookieJar } from './cookies';

/** A user answer that cannot be used; `reason` is an i18n key of the console. */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  constructor(readonly reason: 'login.roleIncorrect' | 'api.badAnswer') {
    super(reason);
  }
}

/** Checks GET /api/user/getCurrent: no (known) role is its own error, "role incorrect". */
export function parseCurrentUser(value: unknown): CurrentUser {
  const role =
    value !== null && typeof value === 'object'
      ? (value as { roleKey?: unknown }).roleKey
      : undefined;
  if (!isRoleKey(role)) throw new SessionError('login.roleIncorrect');
  const result = currentUserSchema.safeParse(value);
  if (!result.success) throw new SessionError('api.badAnswer');
  return result.data;
}

/** The signed-in user: two credential cookies (token and user id) and what getCurrent said. */
export class SessionStore {
  token: string | undefined;
  userId: string | undefined;
  roleKey: RoleKey | null = null;
  name = '';
  username = '';
  avatar = '';
  orgName = '';
  canOperate = false;
  remoteConfigFlag = false;
  mapType: MapType = '1';
  /** The organisation's logo (base64), '' when it has none. */
  logo = '';

  constructor(
    private readonly cookies: CookieJar,
    private readonly api: ApiClient,
  ) {
    this.token = cookies.get(TOKEN_COOKIE) || undefined;
    this.userId = cookies.get(USER_ID_COOKIE) || undefined;
    makeAutoObservable<SessionStore, 'cookies' | 'api' | 'keepCredentials'>(this, {
      cookies: false,
      api: false,
      keepCredentials: false,
    });
  }

  /** Both cookies are needed. */
  get hasCredentials(): boolean {
    return this.token !== undefined && this.userId !== undefined;
  }

  get roles(): RoleKey[] {
    return this.roleKey ? [this.roleKey] : [];
  }

  /** POST /api/login; the user name is trimmed. Failures are toasted by the client. */
  async login(input: LoginRequest): Promise<void> {
    const answer = await signIn(this.api, { ...input, username: input.username.trim() });
    runInAction(() => {
      this.clear();
      this.token = answer.token;
      this.userId = String(answer.userId);
      this.keepCredentials();
    });
  }

  /** GET /api/user/getCurrent; throws SessionError for an unusable answer. */
  async loadCurrentUser(): Promise<CurrentUser> {
    const user = parseCurrentUser(await fetchCurrentUser(this.api));
    runInAction(() => {
      this.applyUser(user);
      // The session was used just now: its cookies live another 7 days, as it does.
      this.keepCredentials();
    });
    return user;
  }

  private keepCredentials(): void {
    if (!this.token || !this.userId) return;
    this.cookies.set(TOKEN_COOKIE, this.token, CREDENTIAL_COOKIE_MAX_AGE_S);
    this.cookies.set(USER_ID_COOKIE, this.userId, CREDENTIAL_COOKIE_MAX_AGE_S);
  }

  applyUser(user: CurrentUser): void {
    this.roleKey = user.roleKey;
    this.name = user.name;
    this.username = user.username;
    this.avatar = user.avatar;
    this.orgName = user.orgName;
    this.canOperate = user.canOperate === '1';
    this.remoteConfigFlag = user.remoteConfigFlag === '1';
    this.mapType = (MAP_TYPES as readonly string[]).includes(user.mapType) ? user.mapType : '1';
  }

  /** GET /api/org/getLogo; no logo (or no endpoint yet) leaves the Roost mark. */
  async loadLogo(): Promise<void> {
    try {
      const logo = await fetchOrgLogo(this.api);
      runInAction(() => (this.logo = logo));
    } catch {
      // Already toasted by the client; the Roost mark stays.
    }
  }

  /** POST /api/logout, then the local session ends whatever the server said. */
  async logout(): Promise<void> {
    try {
      if (this.token) await signOut(this.api);
    } catch {
      // Already signed out on the server (or unreachable): the local session ends anyway.
    } finally {
      runInAction(() => this.clear());
    }
  }

  /** Logout clears token and role and removes both cookies. */
  clear(): void {
    this.token = undefined;
    this.userId = undefined;
    this.roleKey = null;
    this.name = '';
    this.username = '';
    this.avatar = '';
    this.orgName = '';
    this.canOperate = false;
    this.remoteConfigFlag = false;
    this.mapType = '1';
    this.logo = '';
    this.cookies.remove(TOKEN_COOKIE);
    this.cookies.remove(USER_ID_COOKIE);
  }
}
