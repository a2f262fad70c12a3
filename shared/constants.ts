// Business constants from docs/product.md §9, written once for the server, the widget and the portal.

export const PRODUCT_NAME = 'RecoveryQuote';
export const PLAN_PRICE_PENCE = 2000;
export const TRIAL_DAYS = 3;
export const SUPPORT_REPLY_HOURS = 24;
export const DEFAULT_SUPPORT_EMAIL = 'support@recoveryquote.co.uk';

/** The quote schema's hard passenger maximum; a company's own limit may be lower. */
export const MAX_PASSENGERS = 5;
export const PASSENGER_LIMIT_RANGE = { min: 1, max: 10 } as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

/** The nations whose bank holidays an operator may follow (docs/product.md §10), England & Wales by default. */
export const NATIONS = ['england-and-wales', 'scotland', 'northern-ireland'] as const;
export type Nation = (typeof NATIONS)[number];
export const NATION_LABELS: Record<Nation, string> = {
  'england-and-wales': 'England & Wales',
  scotland: 'Scotland',
  'northern-ireland': 'Northern Ireland',
};
export const QUOTE_VALIDITY_HOURS = { min: 1, max: 72, default: 24 } as const;
/** Free miles above this are a typing slip, not a tariff. */
export const MAX_FREE_MILES = 1000;

export const GEARBOX_OPTIONS = [
  { value: 'automatic', label: 'Automatic' },
  { value: 'manual', label: 'Manual' },
  { value: 'other', label: 'Other' },
] as const;

export const ROLLING_OPTIONS = [
  { value: 'rolling', label: 'Rolling' },
  { value: 'not-rolling', label: 'Not Rolling' },
  { value: 'n-a', label: 'N/A' },
] as const;

/** Problem types the demo offers (docs/product.md §9; a real company offers its own custom charges: decision 009). */
export const DEFAULT_PROBLEM_TYPES = [
  { value: 'engine-failure', label: 'Engine Failure' },
  { value: 'accident-recovery', label: 'Accident Recovery' },
  // The value is the API's (docs/product.md §9); the label is British English.
  { value: 'flat-tire', label: 'Flat Tyre' },
  { value: 'fuel-delivery', label: 'Fuel Delivery' },
  { value: 'no-keys', label: 'No Keys' },
  { value: 'flat-battery', label: 'Flat Battery' },
  { value: 'puncture', label: 'Puncture' },
  { value: 'out-of-fuel', label: 'Out of Fuel' },
  { value: 'locked-out', label: 'Locked Out' },
  { value: 'other', label: 'Other' },
] as const;

export const URGENCY_VALUES = ['immediate', 'later'] as const;

export const FEATURE_PRIORITIES = [
  { value: 'low', label: 'Nice to have' },
  { value: 'medium', label: 'Would be helpful' },
  { value: 'high', label: 'Really need this' },
  { value: 'critical', label: "Can't work without it" },
] as const;

export interface ColourTheme {
  name: string;
  primaryColour: string;
  secondaryColour: string;
  accentColour: string;
  backgroundColour: string;
  textColour: string;
}

export const COLOUR_PRESETS: readonly ColourTheme[] = [
  {
    name: 'Professional Blue',
    primaryColour: '#1976D2',
    secondaryColour: '#FFA726',
    accentColour: '#FF5722',
    backgroundColour: '#FAFAFA',
    textColour: '#0F172A',
  },
  { name: 'Emergency Red', primaryColour: '#C62828', secondaryColour: '#212121', accentColour: '#FFC107', backgroundColour: '#FFFFFF', textColour: '#1A1A1A' },
  { name: 'Recovery Green', primaryColour: '#2E7D32', secondaryColour: '#1B5E20', accentColour: '#FFB300', backgroundColour: '#F5F9F5', textColour: '#102A12' },
  {
    name: 'Dark Professional',
    primaryColour: '#37474F',
    secondaryColour: '#263238',
    accentColour: '#FF9800',
    backgroundColour: '#ECEFF1',
    textColour: '#111827',
  },
  { name: 'Midnight Blue', primaryColour: '#1A237E', secondaryColour: '#0D1642', accentColour: '#00B8D4', backgroundColour: '#F3F4FA', textColour: '#0B1026' },
  { name: 'Rescue Orange', primaryColour: '#E65100', secondaryColour: '#3E2723', accentColour: '#FFD54F', backgroundColour: '#FFF8F1', textColour: '#1F130D' },
];

export const FEATURE_ICONS = ['Clock', 'Calculator', 'CheckCircle', 'Shield', 'Truck', 'Star', 'Phone', 'MapPin'] as const;
/** The icons as an operator reads them: stored by their component names, shown in words. */
export const FEATURE_ICON_LABELS: Record<(typeof FEATURE_ICONS)[number], string> = {
  Clock: 'Clock',
  Calculator: 'Calculator',
  CheckCircle: 'Tick in a circle',
  Shield: 'Shield',
  Truck: 'Truck',
  Star: 'Star',
  Phone: 'Phone',
  MapPin: 'Map pin',
};

/** Slugs that would shadow an app route or look official; refused as a custom URL. */
export const RESERVED_SLUGS = [
  'api',
  'admin',
  'dashboard',
  'auth',
  'auth-page',
  'company',
  'preview',
  'subscription',
  'subscription-test',
  'subscription-success',
  'contact',
  'login',
  'logout',
  'signup',
  'assets',
  'widget',
  'static',
  'healthz',
  'docs',
  'billing',
  'checkout',
  'demo',
  'www',
  'support',
  'help',
  'settings',
  'root',
] as const;

/** A scheduled ('later') quote's date: the widget's messages and the API's alike. */
export const PREFERRED_DATE_REQUIRED = 'Preferred date is required';
export const PREFERRED_DATE_PAST = 'Preferred date cannot be in the past';
