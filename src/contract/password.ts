import { z } from 'zod';
import type { Edition } from './editions';

/** Login passwords are at least 5 characters. */
export const LOGIN_PASSWORD_MIN = 5;

/** A new password needs 6 characters, 10 in the lihua edition. */
export function newPasswordMinLength(edition: Edition): number {
  return edition === 'lihua' ? 10 : 6;
}

/** Why a new password is refused; both sides translate the key (i18n `password.*`). */
export type PasswordProblem = 'required' | 'complexity';

/**
 * The one password rule of Roost, used by the console's forms and by the server: a lowercase
 * letter, an uppercase letter and a digit, and the edition's minimum length.
 */
export function checkNewPassword(password: string, edition: Edition): PasswordProblem | null {
  if (password.length === 0) return 'required';
  const long = password.length >= newPasswordMinLength(edition);
  const mixed = /[a-z]/.test(password) && /[A-Z]/.test(password) && /\d/.test(password);
  return long && mixed ? null : 'complexity';
}

/** The same rule as a zod schema, for request bodies. The issue's message is the problem key. */
export function newPasswordSchema(edition: Edition) {
  return z.string().superRefine((value, ctx) => {
    const problem = checkNewPassword(value, edition);
    if (problem) ctx.addIssue({ code: 'custom', message: `password.${problem}` });
  });
}
