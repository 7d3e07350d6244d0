import { z } from 'zod';
import { userSaveSchema } from '../../contract/admin';
import { type Edition } from '../../contract/editions';
import { newPasswordSchema } from '../../contract/password';

/**
 * The user form: the contract's `userSaveSchema`, and for a new user the password the server
 * demands (`admin.passwordRequired`, then the edition's rule), so that the form says so at
 * the field instead of the save being refused. An edit has no password field; its '' is not
 * sent.
 */
export function userFormSchema(edition: Edition, creating: boolean) {
  const password: z.ZodType<string, string> = creating
    ? z.string().min(1, 'admin.passwordRequired').max(256).pipe(newPasswordSchema(edition))
    : z.string().max(256);
  return userSaveSchema.extend({ password });
}
