import { LOGIN_PASSWORD_MIN } from '../../contract/password';

export interface LoginForm {
  username: string;
  password: string;
  code: string;
}

export type LoginField = keyof LoginForm;

export interface LoginFieldError {
  key: 'login.usernameRequired' | 'login.passwordTooShort' | 'login.codeRequired';
  params?: { min: number };
}

/** The user name is trimmed, the password has at least 5 characters, a code is needed. */
export function validateLoginField(
  field: LoginField,
  form: LoginForm,
  captchaRequired: boolean,
): LoginFieldError | null {
  switch (field) {
    case 'username':
      return form.username.trim() === '' ? { key: 'login.usernameRequired' } : null;
    case 'password':
      return form.password.length < LOGIN_PASSWORD_MIN
        ? { key: 'login.passwordTooShort', params: { min: LOGIN_PASSWORD_MIN } }
        : null;
    case 'code':
      return captchaRequired && form.code.trim() === '' ? { key: 'login.codeRequired' } : null;
  }
}
