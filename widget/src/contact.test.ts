import { describe, expect, it } from 'vitest';
import { telUrl, whatsappMessage, whatsappUrl, type QuoteSummary } from './contact';

const summary: QuoteSummary = {
  pickupPostcode: 'M1 1AA',
  destinationPostcode: 'LS1 4AP',
  distance: 43.2,
  vehicle: 'Car',
  gearbox: 'Manual',
  rollingStatus: 'Not Rolling',
  passengerCount: 2,
  problem: 'Engine Failure',
  totalPrice: 1234.5,
  quoteId: 'A1B2C3',
};

describe('whatsappMessage', () => {
  it('holds every detail docs/product.md §7 lists, for an emergency', () => {
    expect(whatsappMessage(summary)).toBe(
      [
        'Hello, I would like to book a vehicle recovery.',
        '',
        'Pickup: M1 1AA',
        'Destination: LS1 4AP (43.2 miles)',
        'Vehicle: Car',
        'Gearbox: Manual',
        'Rolling Status: Not Rolling',
        'Passengers: 2',
        'Problem: Engine Failure',
        'When: Now (Emergency)',
        'Quoted Price: £1,234.50 (Quote ID: TQ-A1B2C3)',
        '',
        'Please confirm the cost and your availability.',
      ].join('\n'),
    );
  });

  it('gives a long en-GB date and the time for a scheduled recovery', () => {
    const text = whatsappMessage({ ...summary, scheduled: { date: '2026-01-05', time: '02:30 PM' } });
    expect(text).toContain('When: 5 January 2026 at 02:30 PM');
  });

  it('leaves out gearbox and rolling status when not set', () => {
    const text = whatsappMessage({ ...summary, gearbox: undefined, rollingStatus: undefined });
    expect(text).not.toContain('Gearbox');
    expect(text).not.toContain('Rolling Status');
    expect(text).toContain('Passengers: 2');
  });
});

describe('links', () => {
  it('keeps only digits and + of the number and encodes the message', () => {
    expect(whatsappUrl('+44 (7700) 900-123', 'Hi & bye\nnow')).toBe('https://wa.me/+447700900123?text=Hi%20%26%20bye%0Anow');
    // wa.me opens a chat only for the international form: a UK number written nationally is +44.
    expect(whatsappUrl('07700 900123', 'Hi')).toBe('https://wa.me/+447700900123?text=Hi');
    expect(whatsappUrl('0044 7700 900123', 'Hi')).toBe('https://wa.me/+447700900123?text=Hi');
    expect(whatsappUrl('447700900123', 'Hi')).toBe('https://wa.me/447700900123?text=Hi');
  });

  it('dials the phone number', () => {
    expect(telUrl('0808 157 0123')).toBe('tel:08081570123');
  });
});
