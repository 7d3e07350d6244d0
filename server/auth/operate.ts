import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors';

/**
 * The options of an operating route: `app.put('/gateway/rotateToken', OPERATING, handler)`.
 * Operating actions change what a house does or what is recorded about it (README "Roles and
 * the operation permission"): its devices, gateways and their tokens, commands, upgrades,
 * flocks, daily records, warning and alarm limits, alarm acknowledgement, silences, escalation
 * and drills. They need the user's operation permission (`canOperate`) on top of the role and
 * the scope. Administration (users, organisations, farms and houses, breeds, kiosk links,
 * backups) and a user's own account are decided by the role alone, so an administrator is
 * never locked out of granting the permission.
 */
export const OPERATING = { config: { operating: true } } as const;

/**
 * The one check of the rule, run by the app's session hook for every route marked OPERATING,
 * before its input is read: a user without the permission is refused in their language.
 */
export function refuseWithoutOperate(request: FastifyRequest): void {
  if (!request.routeOptions.config.operating) return;
  if (!request.session?.user.canOperate) throw new ApiError(403, 'auth.noOperate');
}
