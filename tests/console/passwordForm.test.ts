import { describe, expect, it } from 'vitest';
import { type Edition } from '../../src/contract/editions';
import { issueKey } from '../../src/console/forms/useSchemaForm';
import { passwordFormSchema, type PasswordForm } from '../../src/console/password/passwordForm';

const form = (
  newPassword: string,
  confirmPassword = newPassword,
  oldPassword = 'Roost12345',
): PasswordForm => ({
  oldPassword,
  newPassword,
  confirmPassword,
});

/** Each field's problem as the dialog gets it (useSchemaForm's parse): field → message key. */
function problems(value: PasswordForm, edition: Edition = 'default') {
  const result = passwordFormSchema(edition).safeParse(value, { error: issueKey });
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('the change password rules', () => {
  it('requires the old password', () => {
    expect(problems(form('Abcdef1', 'Abcdef1', ''))).toEqual({
      oldPassword: 'password.oldRequired',
    });
  });

  it('requires a lowercase letter, an uppercase letter and a digit, 6 characters by default', () => {
    expect(problems(form('')).newPassword).toBe('password.required');
    for (const weak of ['abcdef1', 'ABCDEF1', 'Abcdefg', 'Abc1']) {
      expect(problems(form(weak)), weak).toEqual({ newPassword: 'password.complexity' });
    }
    expect(problems(form('Abcde1'))).toEqual({});
  });

  it('demands 10 characters in the lihua edition', () => {
    expect(problems(form('Abcdefgh1'), 'lihua')).toEqual({ newPassword: 'password.complexity' });
    expect(problems(form('Abcdefghi1'), 'lihua')).toEqual({});
  });

  it('requires the confirmation and that it matches', () => {
    expect(problems(form('Abcdef1', ''))).toEqual({ confirmPassword: 'password.confirmRequired' });
    expect(problems(form('Abcdef1', 'Abcdef2'))).toEqual({ confirmPassword: 'password.notSame' });
    expect(problems(form('Abcdef1'))).toEqual({});
  });

  it('says the confirmation differs even while other fields still have problems', () => {
    // The dialog checks a field as it is left: an empty old password must not hide this.
    expect(problems(form('abcdef1', 'abcdef2', ''))).toEqual({
      oldPassword: 'password.oldRequired',
      newPassword: 'password.complexity',
      confirmPassword: 'password.notSame',
    });
  });
});
