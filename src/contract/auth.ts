import { z } from 'zod';
import { LOGIN_PASSWORD_MIN } from './password';
import { ROLE_KEYS } from './roles';

/** Cookie names of the two credentials the console keeps. */
export const TOKEN_COOKIE = 'Admin-Token';
export const USER_ID_COOKIE = 'Admin-UserId';
/**
 * The server ends a session after 7 days without use; the credential cookies live as long,
 * renewed each time the console confirms the session, so none outlives its session.
 */
export const CREDENTIAL_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

/** POST /api/getCode */
export const captchaSchema = z.object({ codeId: z.string(), image: z.string() });
export type Captcha = z.infer<typeof captchaSchema>;

/**
 * POST /api/login. The original console's clients name the captcha field both `code` and `verifycode`: either is
 * accepted. The user name is trimmed.
 */
export const loginRequestSchema = z
  .object({
    username: z.string().trim().min(1, 'login.usernameRequired').max(64),
    password: z.string().min(LOGIN_PASSWORD_MIN, 'login.passwordTooShort').max(256),
    codeId: z.string().max(64).default(''),
    code: z.string().max(16).optional(),
    verifycode: z.string().max(16).optional(),
  })
  .transform(({ code, verifycode, ...rest }) => ({
    ...rest,
    code: (code ?? verifycode ?? '').trim(),
  }));
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const loginResponseSchema = z.object({ userId: z.number().int(), token: z.string() });
export type LoginResponse = z.infer<typeof loginResponseSchema>;

/** GET /api/user/getCurrent; flags are the strings '1' / '0', as the original API has them. */
export const currentUserSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  name: z.string(),
  avatar: z.string(),
  roleKey: z.enum(ROLE_KEYS),
  canOperate: z.enum(['1', '0']),
  remoteConfigFlag: z.enum(['1', '0']),
  mapType: z.enum(['1', '2']),
  orgName: z.string(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/** PUT /api/user/modifyPwd. The new password's rule depends on the edition: see password.ts. */
export const modifyPasswordRequestSchema = z.object({
  type: z.boolean().default(true),
  oldPassword: z.string().min(1, 'password.oldRequired').max(256),
  newPassword: z.string().max(256),
});
export type ModifyPasswordRequest = z.input<typeof modifyPasswordRequestSchema>;
