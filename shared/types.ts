// Response shapes of the API, shared by the server (which builds them) and both front ends:
// each is the output type of its schema in shared/responses.ts, the schema the contract
// declares, so the types cannot drift from the API. Type-only imports: no zod in the bundles.
// Money is in pounds as numbers (docs/architecture.md §3); dates are ISO 8601 strings.
import type { z } from 'zod';
import type {
  alertSchema,
  leadDetailSchema,
  leadNumbersSchema,
  leadPageSchema,
  leadSchema,
  leadSettingsSchema,
  checkoutSuccessSchema,
  companySchema,
  currentUserSchema,
  emailVerifiedSchema,
  noticeSchema,
  passwordChangedSchema,
  verificationSentSchema,
  passengerChargeRowSchema,
  pricedRowSchema,
  pricingRatesSchema,
  pricingSampleResponseSchema,
  publicCompanySchema,
  publicCompanyWithChargesSchema,
  quoteResponseSchema,
  signupResponseSchema,
  subscriptionDetailsSchema,
  surchargeRowSchema,
  setupChecklistSchema,
  shareKitSchema,
} from './responses';

export type CurrentUser = z.output<typeof currentUserSchema>;
export type EmailVerified = z.output<typeof emailVerifiedSchema>;
export type VerificationSent = z.output<typeof verificationSentSchema>;
export type PasswordChanged = z.output<typeof passwordChangedSchema>;
export type Notice = z.output<typeof noticeSchema>;
export type SignupResponse = z.output<typeof signupResponseSchema>;

export interface FeatureBlock {
  title: string;
  description: string;
  icon: string;
}

/** What a customer's quote page needs: never user data, billing ids or disabled rows. */
export type PublicCompany = z.output<typeof publicCompanySchema>;
/** The public read by id or slug, with the enabled vehicle types and custom charges. */
export type PublicCompanyWithCharges = z.output<typeof publicCompanyWithChargesSchema>;
/** The signed-in operator's own company: the public view plus private settings. */
export type Company = z.output<typeof companySchema>;
export type PricingRates = z.output<typeof pricingRatesSchema>;
export type PricingSample = z.output<typeof pricingSampleResponseSchema>;

export type PricedRow = z.output<typeof pricedRowSchema>;
export type Surcharge = z.output<typeof surchargeRowSchema>;
export type PassengerCharge = z.output<typeof passengerChargeRowSchema>;

export type QuoteResponse = z.output<typeof quoteResponseSchema>;

export type SubscriptionDetails = z.output<typeof subscriptionDetailsSchema>;
export type CheckoutSuccessResponse = z.output<typeof checkoutSuccessSchema>;

export type SetupChecklist = z.output<typeof setupChecklistSchema>;
export type ShareKit = z.output<typeof shareKitSchema>;

export type Lead = z.output<typeof leadSchema>;
export type LeadDetail = z.output<typeof leadDetailSchema>;
export type LeadPage = z.output<typeof leadPageSchema>;
export type LeadNumbers = z.output<typeof leadNumbersSchema>;
export type LeadSettings = z.output<typeof leadSettingsSchema>;
export type Alert = z.output<typeof alertSchema>;
