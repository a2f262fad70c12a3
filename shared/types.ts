// Response shapes of the API, shared by the server (which builds them) and both front ends.
// Money is in pounds as numbers (DESIGN.md §3); dates are ISO 8601 strings.
import type { ErrorCode } from './error-codes';
import type { SubscriptionStatus } from './subscription';

export interface CurrentUser {
  id: number;
  email: string;
  name: string;
  companyId: number;
  subscriptionStatus: SubscriptionStatus;
  trialEndsAt: string | null;
}

export interface SignupResponse extends CurrentUser {
  checkoutUrl?: string;
}

export interface FeatureBlock {
  title: string;
  description: string;
  icon: string;
}

/** What a customer's quote page needs: never user data, billing ids or disabled rows. */
export interface PublicCompany {
  id: number;
  name: string;
  /** A cacheable image URL (never a data URL in public reads), or null. */
  logo: string | null;
  primaryColour: string;
  secondaryColour: string;
  accentColour: string;
  backgroundColour: string;
  textColour: string;
  phone: string | null;
  whatsapp: string | null;
  email: string | null;
  preferredContact: string;
  customSlug: string | null;
  showPriceBreakdown: boolean;
  companyDescription: string | null;
  serviceRadius: number;
  extraRadiusFee: number;
  showServiceArea: boolean;
  showFeatures: boolean;
  enablePriceRounding: boolean;
  priceRoundingMultiple: 5 | 10;
  showPriceDisclaimer: boolean;
  passengerLimit: number;
  pricePerPassenger: number;
  feature1Title: string;
  feature1Description: string;
  feature1Icon: string;
  feature2Title: string;
  feature2Description: string;
  feature2Icon: string;
  feature3Title: string;
  feature3Description: string;
  feature3Icon: string;
}

/**
 * The public read by id or slug also carries the enabled vehicle types and custom charges (the
 * problem types a customer chooses from), so the hosted page's form is usable after three
 * requests (page, widget, company) rather than five.
 */
export interface PublicCompanyWithCharges extends PublicCompany {
  vehicleTypes: PricedRow[];
  surcharges: Surcharge[];
}

/** The signed-in operator's own company: the public view plus private settings. */
export interface Company extends PublicCompany {
  customDomain: string | null;
  basePostcode: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PricingRates {
  id: number;
  companyId: number;
  callOutFee: number;
  labourRate: number;
  mileRate: number;
  labourTime: number;
  afterHoursEnabled: boolean;
  afterHoursFee: number;
  afterHoursStart: string;
  afterHoursEnd: string;
}

export interface PricedRow {
  id: number;
  companyId: number;
  name: string;
  basePrice: number;
  enabled: boolean;
}
export type VehicleType = PricedRow;
export type GearboxType = PricedRow;
export type RollingStatusType = PricedRow;
export type ProblemType = PricedRow;

export interface Surcharge {
  id: number;
  companyId: number;
  problemType: string;
  amount: number;
  description: string | null;
  enabled: boolean;
}

export interface PassengerCharge {
  id: number;
  companyId: number;
  passengerCount: number;
  basePrice: number;
  enabled: boolean;
}

export interface QuoteBreakdown {
  vehicleBasePrice: number;
  callOutFee: number;
  distanceFee: number;
  labourFee: number;
  extraFees: number;
  gearboxFee: number;
  rollingStatusFee: number;
  passengerFee: number;
}

export interface QuoteResponse {
  totalPrice: number;
  quoteId: string;
  distance: number;
  breakdown: QuoteBreakdown;
  extras: { label: string; amount: number }[];
  currency: 'GBP';
}

export interface SubscriptionDetails {
  status: SubscriptionStatus;
  email: string;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd?: boolean;
  error?: string;
}

export interface CheckoutSuccessResponse {
  success: boolean;
  authToken?: string;
  user?: CurrentUser;
  error?: string;
  message?: string;
  /** CHECKOUT_ALREADY_PROCESSED on a repeat return, CHECKOUT_INVALID or CHECKOUT_UNPAID on a failure. */
  code?: ErrorCode;
}

export interface ApiError {
  message: string;
  code: ErrorCode;
  fields?: Record<string, string>;
  requestId?: string;
}
