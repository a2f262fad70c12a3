// The operator's booking email in words: the quote's stored codes ("engine-failure", "not-rolling")
// are written as a person reads them, with the shared quote words, as the quote's alert writes them.
import { describe, expect, it } from 'vitest';
import { type BookingFacts, operatorBookingEmail } from './messages';

const facts: BookingFacts = {
  reference: 'K7Q2ABCDEF',
  companyName: 'Acme Recovery',
  companyPhone: '+441614960321',
  customerName: 'Jane Motorist',
  customerPhone: '+447700900123',
  registration: 'AB12 CDE',
  note: null,
  position: null,
  pickupPostcode: 'M1 1AE',
  destinationPostcode: 'M4 4BF',
  vehicleType: 'car',
  gearboxType: 'automatic',
  rollingStatus: 'not-rolling',
  passengerCount: 2,
  distance: 12.5,
  problemType: 'engine-failure',
  pricePence: 18720,
  respondBy: '2026-06-10T12:10:00.000Z',
};

describe('the operator’s booking email', () => {
  it('names the vehicle, gearbox, rolling status and problem in words, with the route, distance, passengers and price', () => {
    const { text, html } = operatorBookingEmail(facts, 'https://quotes.example');
    for (const line of [
      'Route:        M1 1AE to M4 4BF (12.5 miles)',
      'Vehicle:      Car',
      'Gearbox:      Automatic',
      'Rolling:      Not rolling',
      'Passengers:   2',
      'Problem:      Engine failure',
      'Price:        £187.20',
    ]) {
      expect(text).toContain(line);
    }
    for (const code of ['engine-failure', 'not-rolling', 'automatic', ': car']) {
      expect(text).not.toContain(code);
      expect(html).not.toContain(code);
    }
  });

  it('leaves a question the quote did not ask as a dash, and no passengers as none', () => {
    const { text } = operatorBookingEmail({ ...facts, gearboxType: null, rollingStatus: null, passengerCount: 0 }, 'https://quotes.example');
    expect(text).toContain('Gearbox:      –');
    expect(text).toContain('Rolling:      –');
    expect(text).toContain('Passengers:   none');
  });
});
