import { z } from 'zod';
import {
  captchaSchema,
  loginResponseSchema,
  type Captcha,
  type LoginRequest,
  type LoginResponse,
} from '../contract/auth';
import { publicConfigSchema, type PublicConfig } from '../contract/config';
import { type ApiClient } from './client';
import { isApiError, type ApiError } from './errors';

/** A 404 of an endpoint the server does not have yet means "nothing there", silently. */
const missing = (error: ApiError): boolean => error.status === 404;

export function fetchCaptcha(api: ApiClient): Promise<Captcha> {
  return api.post('/getCode', { schema: captchaSchema });
}

export function signIn(api: ApiClient, input: LoginRequest): Promise<LoginResponse> {
  return api.post('/login', { body: input, schema: loginResponseSchema });
}

/** Revokes the token on the server; a dead session is already signed out, so no toast. */
export async function signOut(api: ApiClient): Promise<void> {
  await api.post('/logout', { quiet: () => true });
}

/**
 * GET /api/user/getCurrent. Answered as `unknown`: the session store checks the role itself,
 * because a missing role has its own message ("role incorrect").
 */
/**
 * GET /api/user/getCurrent. Its 401 is not the client's lost session (sign out, reload, "Login
 * failed"): the navigation guard asked it and tells "Verification failed, please login again".
 */
export function fetchCurrentUser(api: ApiClient): Promise<unknown> {
  return api.get('/user/getCurrent', { quiet: (error) => error.kind === 'unauthorized' });
}

/**
 * PUT /api/user/modifyPwd. The server's refusals (a wrong old password) are not toasted: the
 * dialog tells them as a 2 s notification. Other failures take the usual path.
 */
export async function modifyPassword(
  api: ApiClient,
  oldPassword: string,
  newPassword: string,
): Promise<void> {
  await api.put('/user/modifyPwd', {
    body: { type: true, oldPassword, newPassword },
    quiet: (error) => error.kind === 'http',
  });
}

export function fetchPublicConfig(api: ApiClient): Promise<PublicConfig> {
  return api.get('/config', { schema: publicConfigSchema });
}

/** The organisation's logo as a base64 string ('' when there is none, or no endpoint yet). */
export async function fetchOrgLogo(api: ApiClient): Promise<string> {
  try {
    return await api.get('/org/getLogo', {
      schema: z
        .string()
        .nullable()
        .transform((v) => v ?? ''),
      quiet: missing,
    });
  } catch (error) {
    if (isApiError(error) && missing(error)) return '';
    throw error;
  }
}

/** Number of active alarms in the caller's scope (0 while the server has no such endpoint). */
export async function fetchAlarmAmount(api: ApiClient): Promise<number> {
  try {
    return await api.get('/overview/alarmAmt/', {
      schema: z.coerce.number().int().nonnegative(),
      quiet: missing,
    });
  } catch (error) {
    if (isApiError(error) && missing(error)) return 0;
    throw error;
  }
}
