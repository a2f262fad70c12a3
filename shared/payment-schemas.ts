// Payment at booking's request and answer schemas (docs/product.md §21): the server validates
// with them, the portal's Payments section uses them, the contract documents them.
import { z } from 'zod';
import { ACCOUNT_STATES, DEPOSIT_PENCE, DEPOSIT_PERCENT, DEPOSIT_TYPES, PAYMENT_RULES, PAYMENT_STATUSES } from './payments';

export const DEPOSIT_TYPE_REQUIRED = 'Choose a fixed deposit or a percentage';
export const DEPOSIT_AMOUNT_INVALID = `Deposit must be between £${(DEPOSIT_PENCE.min / 100).toFixed(2)} and £${(DEPOSIT_PENCE.max / 100).toLocaleString('en-GB')}, in pounds and pence`;
export const DEPOSIT_PERCENT_INVALID = `Deposit percentage must be a whole number from ${DEPOSIT_PERCENT.min} to ${DEPOSIT_PERCENT.max}`;
export const HOLD_NEEDS_RULE = 'A hold needs a deposit or the full price to fall back on';

export const paymentRuleSchema = z
  .object({
    rule: z.enum(PAYMENT_RULES, { error: 'Choose no payment, a deposit or the full price' }),
    depositType: z.enum(DEPOSIT_TYPES, { error: DEPOSIT_TYPE_REQUIRED }).optional(),
    /** Pounds. */
    depositAmount: z
      .number({ error: DEPOSIT_AMOUNT_INVALID })
      .refine((v) => Number.isFinite(v) && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, DEPOSIT_AMOUNT_INVALID)
      .refine((v) => Math.round(v * 100) >= DEPOSIT_PENCE.min && Math.round(v * 100) <= DEPOSIT_PENCE.max, DEPOSIT_AMOUNT_INVALID)
      .optional(),
    depositPercent: z
      .number({ error: DEPOSIT_PERCENT_INVALID })
      .int(DEPOSIT_PERCENT_INVALID)
      .min(DEPOSIT_PERCENT.min, DEPOSIT_PERCENT_INVALID)
      .max(DEPOSIT_PERCENT.max, DEPOSIT_PERCENT_INVALID)
      .optional(),
    hold: z.boolean({ error: 'Must be true or false' }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.rule === 'deposit') {
      if (!v.depositType) ctx.addIssue({ code: 'custom', path: ['depositType'], message: DEPOSIT_TYPE_REQUIRED });
      if (v.depositType === 'fixed' && v.depositAmount === undefined)
        ctx.addIssue({ code: 'custom', path: ['depositAmount'], message: DEPOSIT_AMOUNT_INVALID });
      if (v.depositType === 'percent' && v.depositPercent === undefined)
        ctx.addIssue({ code: 'custom', path: ['depositPercent'], message: DEPOSIT_PERCENT_INVALID });
    }
    if (v.rule === 'none' && v.hold) ctx.addIssue({ code: 'custom', path: ['hold'], message: HOLD_NEEDS_RULE });
  });
export type PaymentRuleUpdate = z.input<typeof paymentRuleSchema>;

export const paymentRefundSchema = z.object({
  /** Pounds; absent: everything paid and not yet refunded. */
  amount: z
    .number({ error: 'Refund must be an amount in pounds' })
    .refine((v) => Number.isFinite(v) && v > 0 && Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Refund must be more than £0, in pounds and pence')
    .optional(),
});
export type PaymentRefund = z.input<typeof paymentRefundSchema>;

const money = z.number().meta({ description: 'Pounds' });

export const paymentSettingsSchema = z
  .object({
    mode: z.enum(['local', 'stripe']).meta({ description: 'local: the built-in connect and card pages stand in for Stripe' }),
    account: z.object({
      state: z.enum(ACCOUNT_STATES),
      label: z.string(),
      reason: z.string().nullable().meta({ description: 'What the provider says is missing or restricted, when it says' }),
    }),
    rule: z.enum(PAYMENT_RULES),
    depositType: z.enum(DEPOSIT_TYPES).nullable(),
    depositAmount: money.nullable(),
    depositPercent: z.number().int().nullable(),
    hold: z.boolean(),
    active: z.boolean().meta({ description: 'A rule is set and the account is ready: bookings are paid at booking' }),
    offReason: z.string().nullable().meta({ description: 'Why a rule that is set takes no payment now' }),
  })
  .meta({ id: 'PaymentSettings' });
export type PaymentSettings = z.infer<typeof paymentSettingsSchema>;

export const redirectSchema = z.object({ url: z.string() });

/** A booking's payment as its pages show it. */
export const bookingPaymentSchema = z
  .object({
    kind: z.enum(['deposit', 'full', 'hold']),
    status: z.enum(PAYMENT_STATUSES),
    amount: money.meta({ description: 'Charged or held at booking' }),
    refunded: money,
    checkoutUrl: z.string().nullable().meta({ description: 'Where to pay while the payment is awaited; null after' }),
  })
  .meta({ id: 'BookingPayment' });
export type BookingPayment = z.infer<typeof bookingPaymentSchema>;
