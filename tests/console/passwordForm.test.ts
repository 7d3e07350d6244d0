import { describe, expect, it } from 'vitest';
import {
  validatePasswordField,
  validatePasswordForm,
  type PasswordForm,
} from '../../src/console/password/passwordForm';

const form = (
  newPassword: string,
  confirmPassword = newPassword,
  oldPassword = 'Roost12345',
): PasswordForm => ({
  oldPassword,
  newPassword,
  confirmPassword,
});

describe('the change password rules', () => {
  it('requires the old password', () => {
    expect(validatePasswordField('oldPassword', form('Abcdef1', 'Abcdef1', ''), 'default')).toEqual(
      { key: 'password.oldRequired' },
    );
  });

  it('requires a lowercase letter, an uppercase letter and a digit, 6 characters by default', () => {
    expect(validatePasswordField('newPassword', form(''), 'default')).toEqual({
      key: 'password.required',
    });
    for (const weak of ['abcdef1', 'ABCDEF1', 'Abcdefg', 'Abc1']) {
      expect(validatePasswordField('newPassword', form(weak), 'default')).toEqual({
        key: 'password.complexity',
        params: { min: 6 },
      });
    }
    expect(validatePasswordField('newPassword', form('Abcde1'), 'default')).toBeNull();
  });

  it('demands 10 characters in the lihua edition', () => {
    expect(validatePasswordField('newPassword', form('Abcdefgh1'), 'lihua')).toEqual({
      key: 'password.complexity',
      params: { min: 10 },
    });
    expect(validatePasswordField('newPassword', form('Abcdefghi1'), 'lihua')).toBeNull();
  });

  it('requires the confirmation and that it matches', () => {
    expect(validatePasswordField('confirmPassword', form('Abcdef1', ''), 'default')).toEqual({
      key: 'password.confirmRequired',
    });
    expect(validatePasswordField('confirmPassword', form('Abcdef1', 'Abcdef2'), 'default')).toEqual(
      { key: 'password.notSame' },
    );
    expect(validatePasswordForm(form('Abcdef1'), 'default')).toEqual({});
  });
});
