import { describe, expect, it } from 'vitest';
import { signupSchema } from './account-schemas';
import { bookingAcceptSchema } from './booking-schemas';
import { contactInName, isPlainName, nameContactMessage } from './names';
import { checkoutSessionSchema, companyUpdateSchema } from './schemas';

const REFUSED: Array<[string, string]> = [
  ['HMRC: claim at https://x.co', 'web address'],
  ['HMRC: tax refund… claim at https://gov-refund.example/claim', 'web address'],
  ['http://localhost', 'web address'],
  ['hxxps://bad', 'web address'],
  ['www.x.com', 'web address'],
  ['WWW.Recovery', 'web address'],
  ['x.co/abc', 'web address'],
  ['Visit tow.uk', 'web address'],
  ['quick.tow.co.uk Recovery', 'web address'],
  ['claim.online now', 'web address'],
  ['bit.ly/refund', 'web address'],
  ['Refund [.] com', 'web address'],
  ['refund(dot)com', 'web address'],
  ['refund . com', 'web address'],
  ['refund．com', 'web address'],
  ['mailto:help', 'web address'],
  ['tel:07700900123', 'web address'],
  ['a@b.com', 'email address'],
  ['Contact me@example', 'email address'],
  ['a＠b.com', 'email address'],
  ['07700 900123', 'phone number'],
  ['07700900123', 'phone number'],
  ['Call 0800-123-456', 'phone number'],
  ['+44 7700 900123', 'phone number'],
  ['Text (020) 7946 0000', 'phone number'],
  ['０７７００９００１２３', 'phone number'],
  ['Call 077.009.001.23', 'phone number'],
];

const ACCEPTED = [
  'A1 Recovery',
  'Smith & Sons Towing Ltd',
  'Smith & Sons Towing Ltd.',
  '24/7 Recovery',
  'M25 Recovery 2000',
  'St.Helens Recovery',
  'J.B. Towing',
  'A.A. Breakdown',
  "O'Brien Vehicle Recovery",
  'Jane Smith',
  'Zoë Brontë-Smith',
  'Route 66 Towing',
  '1st Choice Recovery 24 7 365',
  'Recovery @ Home',
  'Tow-Co',
  'Élan Recovery (North)',
  'Ltd. Recovery',
  'Dr. Jones Recovery',
];

describe('a name with a contact detail in it', () => {
  it.each(REFUSED)('refuses %j (%s)', (name, what) => {
    expect(contactInName(name)).toBe(what);
    expect(isPlainName(name)).toBe(false);
  });

  it.each(ACCEPTED)('accepts %j', (name) => {
    expect(contactInName(name)).toBeUndefined();
  });
});

describe('the schemas that take a name', () => {
  const signup = { name: 'Jane Smith', email: 'jane@example.com', password: 'a-long-passphrase', companyName: 'A1 Recovery' };

  it('sign-up refuses either name with the field message, and takes normal names', () => {
    expect(signupSchema.safeParse(signup).success).toBe(true);
    const company = signupSchema.safeParse({ ...signup, companyName: 'HMRC: claim at https://x.co' });
    expect(company.success).toBe(false);
    expect(company.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['companyName', nameContactMessage('Company name')]]);
    const person = signupSchema.safeParse({ ...signup, name: '07700 900123' });
    expect(person.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['name', nameContactMessage('Name')]]);
    expect(nameContactMessage('Company name')).toBe('Company name must not contain a web address, email address or phone number');
  });

  it('the company update, the checkout and the driver name use the same rule', () => {
    expect(companyUpdateSchema.safeParse({ name: 'www.x.com' }).error?.issues[0].message).toBe(nameContactMessage('Company name'));
    expect(companyUpdateSchema.safeParse({ name: 'Smith & Sons Towing Ltd' }).success).toBe(true);
    expect(checkoutSessionSchema.safeParse({ companyName: 'a@b.com' }).error?.issues[0].message).toBe(nameContactMessage('Company name'));
    expect(checkoutSessionSchema.safeParse({ name: 'x.co/abc' }).error?.issues[0].message).toBe(nameContactMessage('Name'));
    expect(bookingAcceptSchema.safeParse({ etaMinutes: 20, driverName: 'Call 07700 900123' }).error?.issues[0].message).toBe(nameContactMessage('Driver name'));
    expect(bookingAcceptSchema.safeParse({ etaMinutes: 20, driverName: 'Dave' }).success).toBe(true);
  });
});
