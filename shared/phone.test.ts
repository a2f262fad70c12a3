import { describe, expect, it } from 'vitest';
import { formatPhoneNational } from './phone-number';
import { ukNational } from './phone';

describe('ukNational', () => {
  it.each([
    ['+447700900123', '07700 900123'],
    ['+442079460018', '020 7946 0018'],
    ['+441134960000', '0113 496 0000'],
    ['+441614960000', '0161 496 0000'],
    ['+441234567890', '01234 567890'],
    ['+448001234567', '0800 123 4567'],
    ['+443001234567', '0300 123 4567'],
  ])('writes %s as %s, as libphonenumber does', (e164, national) => {
    expect(ukNational(e164)).toBe(national);
    expect(formatPhoneNational(e164)).toBe(national);
  });

  it('leaves numbers abroad and anything not E.164 as given', () => {
    expect(ukNational('+33612345678')).toBe('+33612345678');
    expect(ukNational('0161 496 0000')).toBe('0161 496 0000');
  });
});
