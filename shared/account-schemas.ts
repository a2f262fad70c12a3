// Account requests (docs/product.md, Accounts): sign-up, forgot and reset password, change
// password, verify an address. The password rule is here once, so the portal shows the server's
// messages under the field before submitting. Kept apart from shared/schemas.ts so the widget,
// which never sets a password, does not carry the common-password list.
import { z } from 'zod';
import { COMMON_PASSWORDS } from './common-passwords';
import { emailField, nameText } from './schemas';

export const PASSWORD_MIN = 6;
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN} characters`;
export const PASSWORD_ONLY_SPACES = 'Password cannot be only spaces';
export const PASSWORD_TOO_COMMON = 'This password is one of the most common ones. Please choose one that is harder to guess.';
/** The server's refusal of a password zxcvbn scores below 2, before its reason (api/auth/password-strength.ts). */
export const PASSWORD_TOO_WEAK = 'This password is too easy to guess.';
export const PASSWORD_HINT = `At least ${PASSWORD_MIN} characters and hard to guess: not a common password, word or name, nor your own name, company or email`;

const COMMON = new Set(COMMON_PASSWORDS.map((p) => p.toLowerCase()));

/** Is this one of the 1,000 most common passwords (in any case)? */
export const isCommonPassword = (password: string): boolean => COMMON.has(password.toLowerCase());

/** A password being set (sign-up, reset, change): the product's minimum and message (docs/product.md), then no blanks-only and no common one. */
export const newPasswordField = z
  .string({ error: PASSWORD_TOO_SHORT })
  .min(PASSWORD_MIN, PASSWORD_TOO_SHORT)
  .max(200, 'Password must be at most 200 characters')
  .refine((v) => v.trim().length > 0, PASSWORD_ONLY_SPACES)
  .refine((v) => !isCommonPassword(v), PASSWORD_TOO_COMMON);

export const signupSchema = z.object({
  name: nameText('Name is required', 100),
  email: emailField,
  password: newPasswordField,
  companyName: nameText('Company name is required', 100),
});
export type SignupRequest = z.infer<typeof signupSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordSchema>;

/** A link's token as it arrives from the page: its shape is checked where it is looked up. */
const linkToken = z.string({ error: 'The link is not valid' }).min(1, 'The link is not valid').max(200, 'The link is not valid');

export const resetPasswordSchema = z.object({ token: linkToken, password: newPasswordField });
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required' })
    .min(1, 'Current password is required')
    .max(200, 'Password must be at most 200 characters'),
  newPassword: newPasswordField,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

export const verifyEmailSchema = z.object({ token: linkToken });

/** "Email me a sign-in link" on the sign-in page. */
export const signInLinkRequestSchema = z.object({ email: emailField });
export type SignInLinkRequest = z.infer<typeof signInLinkRequestSchema>;

/** The sign-in link's token, as its page sends it. */
export const signInWithLinkSchema = z.object({ token: linkToken });
