import { describe, expect, it } from 'vitest';
import {
  companyUpdateSchema,
  contactFormSchema,
  decimalInput,
  forbiddenCharacterMessage,
  isCleanText,
  moneyInput,
  passengerChargeSchema,
  pricingUpdateSchema,
  surchargeSchema,
  vehicleTypeSchema,
} from './schemas';
import { signupSchema } from './account-schemas';

/** The first message zod gives for `field`, or undefined when the value is accepted. */
function messageFor(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  body: object,
  field: string,
) {
  const result = schema.safeParse(body);
  return result.success ? undefined : result.error?.issues.find((i) => i.path.join('.') === field)?.message;
}

describe('money and number fields', () => {
  const LOOSE = ['0x10', '0b101', '0o7', '.5e1', '1e2', ' 12 ', '12 ', '\t1', 'Infinity', '-Infinity', 'NaN', '1_000', '£5', '5,00', '+5', '1.', '--1'];

  it.each(LOOSE)('money refuses %j with its own message', (value) => {
    expect(moneyInput.safeParse(value).success).toBe(false);
    expect(messageFor(pricingUpdateSchema, { callOutFee: value }, 'callOutFee')).toBe('Must be an amount in pounds');
  });

  it.each(LOOSE)('labour time and service radius refuse %j with their own messages', (value) => {
    expect(messageFor(pricingUpdateSchema, { labourTime: value }, 'labourTime')).toBe('Labour time must be a number');
    expect(messageFor(companyUpdateSchema, { serviceRadius: value }, 'serviceRadius')).toBe('Service radius must be a number');
  });

  it('refuses an infinite number', () => {
    expect(messageFor(pricingUpdateSchema, { callOutFee: Number.POSITIVE_INFINITY }, 'callOutFee')).toBe('Must be an amount in pounds');
    expect(messageFor(pricingUpdateSchema, { labourTime: Number.POSITIVE_INFINITY }, 'labourTime')).toBeDefined();
  });

  it('takes plain decimal numbers and strings, and blanks as not given', () => {
    expect(pricingUpdateSchema.parse({ callOutFee: '12.50', labourRate: 45, mileRate: '.5', labourTime: '1.25', afterHoursFee: '' })).toMatchObject({
      callOutFee: 12.5,
      labourRate: 45,
      mileRate: 0.5,
      labourTime: 1.25,
      afterHoursFee: undefined,
    });
    expect(companyUpdateSchema.parse({ serviceRadius: '30.5', extraRadiusFee: null, passengerLimit: '3' })).toMatchObject({
      serviceRadius: 30.5,
      extraRadiusFee: undefined,
      passengerLimit: 3,
    });
    expect(decimalInput('007')).toBe(7);
    expect(decimalInput('0x10')).toBe('0x10');
  });

  it('refuses more decimals than the column keeps instead of rounding them away', () => {
    expect(messageFor(pricingUpdateSchema, { callOutFee: 0.001 }, 'callOutFee')).toBe('Use at most 2 decimal places');
    expect(messageFor(pricingUpdateSchema, { mileRate: '2.555' }, 'mileRate')).toBe('Use at most 2 decimal places');
    expect(messageFor(pricingUpdateSchema, { labourTime: 0.001 }, 'labourTime')).toBe('Labour time must have at most 2 decimal places');
    expect(messageFor(pricingUpdateSchema, { labourTime: '1.005' }, 'labourTime')).toBe('Labour time must have at most 2 decimal places');
    expect(messageFor(companyUpdateSchema, { serviceRadius: 0.001 }, 'serviceRadius')).toBe('Service radius must have at most 2 decimal places');
    expect(messageFor(passengerChargeSchema, { passengerCount: 1.5 }, 'passengerCount')).toBe('Passenger count must be a whole number');
    expect(messageFor(companyUpdateSchema, { priceRoundingMultiple: '0xa' }, 'priceRoundingMultiple')).toBe('Rounding must be 5 or 10');
    // Binary floating point: amounts that have 2 decimals are not refused for their float error.
    expect(pricingUpdateSchema.parse({ callOutFee: 0.29, mileRate: 1.15, labourTime: 0.07 })).toMatchObject({ callOutFee: 0.29, labourTime: 0.07 });
  });

  it('keeps the range messages', () => {
    expect(messageFor(pricingUpdateSchema, { callOutFee: '-1' }, 'callOutFee')).toBe('Must not be negative');
    expect(messageFor(pricingUpdateSchema, { labourTime: 25 }, 'labourTime')).toBe('Labour time must be at most 24');
  });
});

describe('free text fields', () => {
  const BAD = {
    NUL: 'Acme\u0000Recovery',
    'C0 BEL': 'Acme\u0007',
    ESC: '\u001b[31mAcme',
    'carriage return': 'Acme\rRecovery',
    DEL: 'Acme\u007f',
    'C1 NEL': 'Acme\u0085',
    'C1 CSI': 'Acme\u009b',
    LRE: '\u202aAcme',
    RLO: 'Acme \u202eyrevoceR',
    LRI: '\u2066Acme',
    PDI: 'Acme\u2069',
    'lone surrogate': 'Acme\ud800',
  };

  it.each(Object.entries(BAD))('refuses %s in names, company fields and descriptions, naming the field', (_label, value) => {
    expect(messageFor(signupSchema, { name: value }, 'name')).toBe(forbiddenCharacterMessage('Name'));
    expect(messageFor(signupSchema, { companyName: value }, 'companyName')).toBe(forbiddenCharacterMessage('Company name'));
    expect(messageFor(vehicleTypeSchema, { name: value }, 'name')).toBe(forbiddenCharacterMessage('Vehicle type name'));
    expect(messageFor(surchargeSchema, { problemType: value }, 'problemType')).toBe(forbiddenCharacterMessage('Problem type'));
    expect(messageFor(surchargeSchema, { problemType: 'Ditch', description: value }, 'description')).toBe(forbiddenCharacterMessage('Description'));
    expect(messageFor(companyUpdateSchema, { name: value }, 'name')).toBe(forbiddenCharacterMessage('Company name'));
    expect(messageFor(companyUpdateSchema, { companyDescription: value }, 'companyDescription')).toBe(forbiddenCharacterMessage('Company description'));
    expect(messageFor(companyUpdateSchema, { customDomain: value }, 'customDomain')).toBe(forbiddenCharacterMessage('Custom domain'));
    expect(messageFor(companyUpdateSchema, { feature2Title: value }, 'feature2Title')).toBe(forbiddenCharacterMessage('Feature 2 title'));
    expect(messageFor(companyUpdateSchema, { feature3Description: value }, 'feature3Description')).toBe(forbiddenCharacterMessage('Feature 3 description'));
    expect(messageFor(contactFormSchema, { message: value }, 'message')).toBe(forbiddenCharacterMessage('Message'));
  });

  it('allows newlines and tabs in descriptions only', () => {
    expect(companyUpdateSchema.parse({ companyDescription: 'Line one\nLine two\tindented' }).companyDescription).toBe('Line one\nLine two\tindented');
    expect(surchargeSchema.parse({ problemType: 'Ditch', description: 'a\nb' }).description).toBe('a\nb');
    expect(messageFor(companyUpdateSchema, { name: 'Acme\nRecovery' }, 'name')).toBe(forbiddenCharacterMessage('Company name'));
    expect(messageFor(companyUpdateSchema, { feature1Title: 'Fast\tand' }, 'feature1Title')).toBe(forbiddenCharacterMessage('Feature 1 title'));
  });

  it('takes ordinary Unicode text: accents, emoji, right-to-left script and its marks', () => {
    for (const text of ['Café Récupération', 'Tow 🚗 Co', 'שירות גרירה', 'Acme\u200fRecovery', 'Ørsted & Søn']) {
      expect(isCleanText(text), text).toBe(true);
      expect(companyUpdateSchema.parse({ name: text }).name).toBe(text);
    }
  });

  it('still trims and still says a blank name is required', () => {
    expect(signupSchema.safeParse({ name: '  ', email: 'a@b.co', password: 'secret1', companyName: 'C' }).error?.issues[0].message).toBe('Name is required');
    expect(companyUpdateSchema.parse({ name: '  Acme  ' }).name).toBe('Acme');
  });
});
