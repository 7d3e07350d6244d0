import { z } from 'zod';
import { modifyPasswordRequestSchema } from '../../contract/auth';
import { type Edition } from '../../contract/editions';
import { newPasswordSchema } from '../../contract/password';

const request = modifyPasswordRequestSchema.shape;

/** The confirmation has been typed (and the new password is text to hold it against). */
function confirmationTyped(value: unknown): boolean {
  const form = value as { newPassword?: unknown; confirmPassword?: unknown };
  return (
    typeof form.newPassword === 'string' &&
    typeof form.confirmPassword === 'string' &&
    form.confirmPassword !== ''
  );
}

/**
 * The change password form: the contract's request (the old password required, the new one
 * under the edition's rule, the rule the server applies) and the new password typed again,
 * alike, which only the console asks. Each message is an i18n key under `password.`; the
 * complexity one names the edition's length (`{ min }`, given by the form).
 */
export function passwordFormSchema(edition: Edition) {
  return z
    .object({
      oldPassword: request.oldPassword,
      newPassword: request.newPassword.pipe(newPasswordSchema(edition)),
      confirmPassword: z.string().min(1, 'password.confirmRequired'),
    })
    .refine((form) => form.confirmPassword === form.newPassword, {
      path: ['confirmPassword'],
      message: 'password.notSame',
      // Said as soon as the confirmation is typed, whatever the other fields still lack; an
      // empty one has its own message.
      when: ({ value }) => confirmationTyped(value),
    });
}

export type PasswordForm = z.input<ReturnType<typeof passwordFormSchema>>;

export const EMPTY_PASSWORD_FORM: PasswordForm = {
  oldPassword: '',
  newPassword: '',
  confirmPassword: '',
};
