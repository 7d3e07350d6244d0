/** The vocabulary of the role × endpoint matrix (matrix.test.ts): requests, rows, helpers. */
import type { Method } from './client';
import type { Fixtures, Role } from './matrixFixtures';

/** One request: a path with its query, a JSON body, or (upload) a small PNG as multipart. */
export interface Req {
  url: string;
  body?: object;
  upload?: boolean;
  /** The uploaded file's name when `l.png` would be refused (upgrade files have no suffix). */
  fileName?: string;
}
export type Build = (f: Fixtures) => Req | Promise<Req>;

/** A request outside the role's scope (or above its role) and why it must be refused. */
export interface Outside {
  why: string;
  build: Build;
}

/** What a successful read must not show the role (the read's own scope check). */
export type Check = (data: unknown, body: string, f: Fixtures) => void | Promise<void>;

/**
 * What a kiosk token may do on an endpoint (the kiosk column of the matrix). The token is that
 * of Fixtures' live link, whose scope is one farm (`f.kiosk.farmId`, Weifang). Without this
 * entry the endpoint refuses the token; with it, the revoked link's token is refused (401).
 */
export interface KioskAccess {
  /** A request inside the link's farm that succeeds. */
  inside: Build;
  /** Requests about what the link may not see (another farm): 403 or 404. */
  outside?: Outside[];
  /** What the successful read must not show the link (another farm's data). */
  check?: Check;
}

export interface Endpoint {
  method: Method;
  path: string;
  /**
   * Roles the endpoint is for; every other role gets the first inside request and a 403. Empty
   * for a kiosk-only route: every user role then gets the kiosk's inside request.
   */
  roles: readonly Role[];
  /** For each role of `roles`: a request inside its scope that succeeds. */
  inside: Partial<Record<Role, Build>>;
  outside?: Partial<Record<Role, Outside[]>>;
  check?: Partial<Record<Role, Check>>;
  kiosk?: KioskAccess;
}

export const ALL: readonly Role[] = ['admin', 'company', 'area', 'farm', 'shack'];
export const USER_ROLES: readonly Role[] = ['admin', 'company', 'area', 'farm'];
export const FARM_ROLES: readonly Role[] = ['admin', 'company'];
export const ADMIN: readonly Role[] = ['admin'];

let n = 0;
/** A number never used before in this run: names and values that must differ per call. */
export const next = () => (n += 1);
export const name = (prefix: string) => `${prefix}${next()}`;
export const today = () => new Date().toISOString().slice(0, 10);
export const newUser = (roleKey: string, scope: { farmIds?: number[]; shackIds?: number[] }) => ({
  username: name('matrix.u'),
  password: 'Keeper12345',
  roleKey,
  farmIds: scope.farmIds ?? [],
  shackIds: scope.shackIds ?? [],
});

/** Same call for every role, on an object chosen per role. */
export const per = (
  build: (f: Fixtures, role: Role) => Req | Promise<Req>,
  roles: readonly Role[],
) => Object.fromEntries(roles.map((r) => [r, (f: Fixtures) => build(f, r)]));

export const byId = (id: number) => ({ body: { id } });

export function expectAbsent(body: string, text: string): void {
  if (body.includes(text)) throw new Error(`shows ${text}`);
}

/** A house of the demo each scoped role may not see (matrixFixtures' houses). */
export const OUTSIDE_HOUSE: Record<
  Exclude<Role, 'admin'>,
  { why: string; house: 'qy1' | 'tl1' | 'gc1' | 'wf4' }
> = {
  company: { why: 'a house of the other company', house: 'qy1' },
  area: { why: 'a house of a farm it does not manage', house: 'tl1' },
  farm: { why: 'a house of another farm', house: 'gc1' },
  shack: { why: 'a house of its farm it was not given', house: 'wf4' },
};

/** For each scoped role of `roles`: the same request about a house it may not see. */
export const outsideHouse = (
  build: (houseId: number, f: Fixtures) => Req | Promise<Req>,
  roles: readonly Role[] = ALL,
): Partial<Record<Role, Outside[]>> =>
  Object.fromEntries(
    Object.entries(OUTSIDE_HOUSE)
      .filter(([role]) => roles.includes(role as Role))
      .map(([role, { why, house }]) => [
        role,
        [{ why, build: (f: Fixtures) => build(f.house[house], f) }],
      ]),
  );
