import type { Role } from './matrixFixtures';
import { ALL, outsideHouse as outside, per, type Endpoint } from './matrixShared';

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
  {
    method: 'GET',
    path: '/envcontrol/deviceLog',
    roles: ALL,
    inside: per((f) => ({ url: `/envcontrol/deviceLog?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/envcontrol/deviceLog?houseId=${houseId}` })),
  },
  {
    // The gateway itself answers: Weifang House 2's, connected through a real broker.
    method: 'POST',
    path: '/envcontrol/deviceLog',
    roles: ALL,
    inside: per(
      async (f) => ({
        url: '/envcontrol/deviceLog',
        body: { houseId: await f.answeringHouse() },
      }),
      ALL,
    ),
    outside: outside((houseId) => ({ url: '/envcontrol/deviceLog', body: { houseId } })),
  },
  {
    method: 'GET',
    path: '/envcontrol/records/export',
    roles: ALL,
    inside: per((f) => ({ url: `/envcontrol/records/export?houseId=${f.house.wf1}` }), ALL),
    outside: outside((houseId) => ({ url: `/envcontrol/records/export?houseId=${houseId}` })),
  },
];
