import type { Role } from './matrixFixtures';
import { ALL, per, type Endpoint, type Outside } from './matrixShared';

/** A house of the demo each scoped role may not see. */
const OUTSIDE_HOUSE: Record<
  Exclude<Role, 'admin'>,
  { why: string; house: 'qy1' | 'tl1' | 'gc1' | 'wf4' }
> = {
  company: { why: 'a house of the other company', house: 'qy1' },
  area: { why: 'a house of a farm it does not manage', house: 'tl1' },
  farm: { why: 'a house of another farm', house: 'gc1' },
  shack: { why: 'a house of its farm it was not given', house: 'wf4' },
};

const outside = (
  build: (houseId: number) => { url: string; body?: object },
  roles: readonly Role[] = ALL,
): Partial<Record<Role, Outside[]>> =>
  Object.fromEntries(
    Object.entries(OUTSIDE_HOUSE)
      .filter(([role]) => roles.includes(role as Role))
      .map(([role, { why, house }]) => [role, [{ why, build: (f) => build(f.house[house]) }]]),
  );

/** The demo gives remote configuration to the administrator and the company manager only. */
const SENDERS: readonly Role[] = ['admin', 'company'];
const send = (houseId: number) => ({
  url: '/envcontrol/send',
  body: { houseIds: [houseId], params: { heat_offset: 1.5 } },
});

/** House Setting: every role reads the houses of its scope; only remote configurers send. */
export const ENVCONTROL_ENDPOINTS: Endpoint[] = [
  {
    method: 'GET',
    path: '/envcontrol/house',
    roles: ALL,
    inside: per((f) => ({ url: `/envcontrol/house?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/envcontrol/house?houseId=${houseId}` })),
  },
  {
    method: 'GET',
    path: '/envcontrol/records',
    roles: ALL,
    inside: per((f) => ({ url: `/envcontrol/records?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/envcontrol/records?houseId=${houseId}` })),
  },
  {
    method: 'GET',
    path: '/envcontrol/autoConfig',
    roles: ALL,
    inside: per((f) => ({ url: `/envcontrol/autoConfig?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/envcontrol/autoConfig?houseId=${houseId}` })),
  },
  {
    method: 'POST',
    path: '/envcontrol/send',
    roles: SENDERS,
    inside: per((f) => send(f.house.wf1), SENDERS),
    outside: outside(send, SENDERS),
  },
];
