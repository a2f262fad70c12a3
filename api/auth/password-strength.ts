// How hard a new password is to guess (docs/product.md, Accounts), with zxcvbn-ts: a maintained
// estimator that knows common passwords, words, names, keyboard walks, repeats, dates and l33t.
// Beside the shared schema's length and common-password rules, a password being set (sign-up,
// reset, change) must score at least 2 of 4, with the account's own words (its name, company name
// and email) counted as guessable. The dictionaries are megabytes: they load on the server only,
// on the first password set, once per process (never in widget.js or the portal's bundle).
import { PRODUCT_NAME } from '#shared/constants';
import { PASSWORD_TOO_WEAK } from '#shared/account-schemas';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { ValidationFailed } from '../platform/errors';

/** The lowest zxcvbn score accepted: 2 is "somewhat guessable", safe from unthrottled online guessing. */
export const MIN_PASSWORD_SCORE = 2;

/**
 * Only this many leading characters are estimated: the estimate's cost grows steeply with length
 * (its l33t and repeat matchers), and a password whose first 48 characters are guessable is weak
 * anyway. With the l33t cap below, the worst case stays under ~0.1 s of one core.
 */
const ESTIMATED_LENGTH = 48;

/** Words every password here should avoid, whoever sets it: the product's and the trade's. */
const PRODUCT_WORDS = [PRODUCT_NAME, 'recovery', 'quote', 'towing', 'breakdown'];

let estimator: Promise<ZxcvbnFactory> | undefined;

/** The estimator with the English and common dictionaries, loaded on first use and kept. */
function loadEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory: Factory }, common, en] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new Factory({
      translations: en.translations,
      graphs: common.adjacencyGraphs,
      dictionary: { ...common.dictionary, ...en.dictionary },
      maxLength: ESTIMATED_LENGTH,
      l33tMaxSubstitutions: 10,
    });
  })();
  estimator.catch(() => {
    estimator = undefined;
  });
  return estimator;
}

export interface PasswordContext {
  name?: string;
  companyName?: string;
  email?: string;
}

/** The account's words, and each part of them, as the estimator's user inputs. */
function userInputs(context: PasswordContext): string[] {
  const whole = [context.name, context.companyName, context.email].filter((v): v is string => Boolean(v?.trim()));
  const parts = whole.flatMap((v) => v.toLowerCase().split(/[^a-z0-9]+/)).filter((p) => p.length >= 3);
  return [...new Set([...whole, ...parts, ...PRODUCT_WORDS])];
}

/** The refusal's sentence: the product's, then zxcvbn's warning, or else its first suggestion. */
export function weakPasswordMessage(feedback: { warning: string | null; suggestions: string[] }): string {
  const why = feedback.warning || feedback.suggestions[0];
  return why ? `${PASSWORD_TOO_WEAK} ${why}` : PASSWORD_TOO_WEAK;
}

/** The password's score (0–4) and, below the minimum, why. */
export async function estimatePassword(password: string, context: PasswordContext): Promise<{ score: number; message?: string }> {
  const result = (await loadEstimator()).check(password, userInputs(context));
  return result.score >= MIN_PASSWORD_SCORE ? { score: result.score } : { score: result.score, message: weakPasswordMessage(result.feedback) };
}

/** Refuses a password that is too easy to guess: 400 PASSWORD_TOO_WEAK with the reason under `field`. */
export async function assertStrongPassword(password: string, context: PasswordContext, field: string): Promise<void> {
  const { message } = await estimatePassword(password, context);
  if (message) throw new ValidationFailed(message, { [field]: message }, 'PASSWORD_TOO_WEAK');
}
