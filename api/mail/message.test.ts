import { describe, expect, it } from 'vitest';
import type { QuoteRow } from './store';
import { dailySummary, escapeHtml, quoteAlert } from './message';

const quote: QuoteRow = {
  id: 7,
  publicId: '4XD8HBZSR',
  companyId: 2,
  pickupPostcode: 'LS1 4AP',
  destinationPostcode: 'M1 1AA',
  vehicleType: '<img src=x onerror=alert(1)>',
  registration: null,
  gearboxType: 'manual',
  rollingStatus: 'not-rolling',
  passengerCount: 2,
  problemType: 'engine-failure',
  urgency: 'later',
  preferredDate: '2026-11-28',
  preferredTime: '09:30',
  distance: 43.2,
  callOutFeePence: 0,
  distanceFeePence: 0,
  labourFeePence: 0,
  extraFeesPence: 0,
  totalPricePence: 14375,
  vatPence: 0,
  vatRatePercent: 0,
  validUntil: null,
  lines: null,
  status: 'new',
  statusChangedAt: null,
  contactChannel: null,
  contactedAt: null,
  whatsappTappedAt: null,
  phoneTappedAt: null,
  createdAt: '2026-11-24T14:02:00.000Z',
};

describe('the alert for one quote', () => {
  const mail = quoteAlert(quote, 'Tow & Co', 'https://quotes.example');

  it('says the reference and price in the subject', () => {
    expect(mail.subject).toBe('New quote TQ-4XD8HBZSR: £143.75, LS1 4AP → M1 1AA');
  });

  it('lists what was asked, when it is needed and the link to the quote', () => {
    const lines = mail.text.split('\n').map((line) => line.replace(/: +/, ': '));
    for (const line of [
      'When: Tue, 24 Nov 2026, 14:02',
      'Route: LS1 4AP → M1 1AA (43.2 miles)',
      'Gearbox: Manual',
      'Rolling: Not rolling',
      'Passengers: 2',
      'Problem: Engine failure',
      'Needed: Sat, 28 Nov 2026 at 09:30',
      'Total: £143.75',
    ]) {
      expect(lines).toContain(line);
    }
    expect(mail.text).toContain('Open the quote: https://quotes.example/dashboard?tab=quotes&quote=4XD8HBZSR');
  });

  it('escapes the motorist’s and the operator’s strings in the HTML', () => {
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.html).toContain('Tow &amp; Co');
    expect(mail.html).toContain('href="https://quotes.example/dashboard?tab=quotes&amp;quote=4XD8HBZSR"');
  });
});

describe('the daily summary', () => {
  it('counts the day’s quotes and lists those it holds', () => {
    const mail = dailySummary('2026-11-24', [quote], 3, 'Tow & Co', 'https://quotes.example');
    expect(mail.subject).toBe('Your quotes for Tue, 24 Nov 2026: 3 quotes');
    expect(mail.text).toContain('TQ-4XD8HBZSR  14:02  LS1 4AP → M1 1AA (43.2 mi)');
    expect(mail.text).toContain('…and 2 more.');
    expect(mail.html).toContain('Tow &amp; Co');
    expect(mail.html).not.toContain('<img');
  });
});

it('escapeHtml escapes the five characters HTML gives meaning', () => {
  expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
});
