import { type Edition } from '../../contract/editions';
import { checkNewPassword, newPasswordMinLength } from '../../contract/password';

export interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export type PasswordField = keyof PasswordForm;

export const EMPTY_PASSWORD_FORM: PasswordForm = {
  oldPassword: '',
  newPassword: '',
  confirmPassword: '',
};

/** A rule a field breaks: an i18n key under `password.` and its parameters. */
export interface PasswordFieldError {
  key:
    | 'password.oldRequired'
    | 'password.required'
    | 'password.complexity'
    | 'password.confirmRequired'
    | 'password.notSame';
  params?: { min: number };
}

/**
 * The rules for one field (old password required, new password typed twice alike); the new
 * password's rule is the edition's (shared with the server).
 */
export function validatePasswordField(
  field: PasswordField,
  form: PasswordForm,
  edition: Edition,
): PasswordFieldError | null {
  switch (field) {
    case 'oldPassword':
      return form.oldPassword === '' ? { key: 'password.oldRequired' } : null;
    case 'newPassword': {
      const problem = checkNewPassword(form.newPassword, edition);
      if (problem === 'required') return { key: 'password.required' };
      if (problem === 'complexity')
        return { key: 'password.complexity', params: { min: newPasswordMinLength(edition) } };
      return null;
    }
    case 'confirmPassword':
      if (form.confirmPassword === '') return { key: 'password.confirmRequired' };
      return form.confirmPassword === form.newPassword ? null : { key: 'password.notSame' };
  }
}

export type PasswordErrors = Partial<Record<PasswordField, PasswordFieldError>>;

export function validatePasswordForm(form: PasswordForm, edition: Edition): PasswordErrors {
  const errors: PasswordErrors = {};
  for (const field of ['oldPassword', 'newPassword', 'confirmPassword'] as const) {
    const error = validatePasswordField(field, form, edition);
    if (error) errors[field] = error;
  }
  return errors;
}
