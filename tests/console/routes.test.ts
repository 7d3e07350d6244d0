import { describe, expect, it } from 'vitest';
import { ROLE_KEYS } from '../../src/contract/roles';
import { ROUTE_TABLE } from '../../src/console/routes';
import { filterRoutes, flattenPaths } from '../../src/stores/PermissionStore';

const OPEN = [
  '/dashboard',
  '/shack/status',
  '/shack/status/overview',
  '/shack/status/monitor',
  '/shack/status/compared',
  '/alarm',
  '/alarm/list',
  '/alarm/settings',
  '/alarm/silences',
  '/alarm/escalation',
  '/alarm/preferences',
  '/envcontrol/index',
  '/envcontrol/ai6000',
  '/shack/manage',
  '/production',
  '/production/input',
  '/production/flocks',
  '/production/power',
  '/log/index',
  '/404',
];

const allowed = (roles: string[], alarmScreen = true) =>
  flattenPaths(filterRoutes(ROUTE_TABLE, roles, { alarmScreen }));
const restricted = (roles: string[], alarmScreen = true) =>
  allowed(roles, alarmScreen).filter((p) => !OPEN.includes(p));

describe('route generation from the role-filtered route table', () => {
  it('opens the routes without roles to every role', () => {
    for (const role of ROLE_KEYS) expect(allowed([role])).toEqual(expect.arrayContaining(OPEN));
  });

  it('gives each role its /system children and the administrator the alarm overview', () => {
    expect(restricted(['administrator'])).toEqual([
      '/alarm/drills',
      '/production/tariff',
      '/system',
      '/system/org',
      '/system/user',
      '/system/farm',
      '/system/poultry',
      '/system/api',
      '/alarmOverview/index',
      '/screenDatav/home',
    ]);
    expect(restricted(['company_manager'])).toEqual([
      '/production/tariff',
      '/system',
      '/system/user',
      '/system/farm',
      '/system/poultry',
    ]);
    expect(restricted(['area_manager'])).toEqual(['/system', '/system/user']);
    expect(restricted(['farm_manager'])).toEqual(['/system', '/system/user']);
    expect(restricted(['shack_manager'])).toEqual([]);
  });

  it('adds the alarm overview only when the server has the alarm screen on', () => {
    expect(restricted(['administrator'], false)).not.toContain('/alarmOverview/index');
  });

  it('gives a role named admin every role-restricted route', () => {
    expect(restricted(['admin'])).toEqual(restricted(['administrator']));
  });
});
