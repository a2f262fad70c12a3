import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from './common-passwords';
import { changePasswordSchema, newPasswordField, PASSWORD_ONLY_SPACES, PASSWORD_TOO_COMMON, PASSWORD_TOO_SHORT, signupSchema } from './account-schemas';

const message = (value: unknown) => newPasswordField.safeParse(value).error?.issues[0].message;

describe('the password rule', () => {
  it('ships the 1,000 most common passwords, most common first', () => {
    expect(COMMON_PASSWORDS).toHaveLength(1000);
    expect(COMMON_PASSWORDS.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
  });

  it('keeps the 6-character minimum and its message', () => {
    expect(message('a1b2c')).toBe(PASSWORD_TOO_SHORT);
    expect(PASSWORD_TOO_SHORT).toBe('Password must be at least 6 characters');
    expect(message(undefined)).toBe(PASSWORD_TOO_SHORT);
  });

  it('refuses a password of only whitespace', () => {
    expect(message('       ')).toBe(PASSWORD_ONLY_SPACES);
    expect(message('\t \n   ')).toBe(PASSWORD_ONLY_SPACES);
  });

  it('refuses a common password in any case, and accepts an uncommon one', () => {
    expect(message('password')).toBe(PASSWORD_TOO_COMMON);
    expect(message('PassWord')).toBe(PASSWORD_TOO_COMMON);
    expect(message('tow-truck-lemon-42')).toBeUndefined();
    expect(message(COMMON_PASSWORDS[999])).toBe(COMMON_PASSWORDS[999].length < 6 ? PASSWORD_TOO_SHORT : PASSWORD_TOO_COMMON);
  });

  it('is the rule of sign-up and of a change', () => {
    expect(signupSchema.safeParse({ name: 'A', email: 'a@b.co', password: 'letmein', companyName: 'C' }).error?.issues[0].message).toBe(PASSWORD_TOO_COMMON);
    expect(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: '        ' }).error?.issues[0].path).toEqual(['newPassword']);
  });
});
