import { describe, expect, it } from 'vitest';
import { compactPostcode, formatPostcode, isValidPostcode } from './postcode';

describe('isValidPostcode (docs/product.md §5)', () => {
  it.each(['M1 1AE', 'm11ae', 'SW1A 1AA', 'sw1a1aa', ' LS1  4AP ', 'CR2 6XH', 'DN55 1PT', 'W1A 0AX', 'EC1A 1BB', 'B33 8TH'])('accepts %j', (postcode) => {
    expect(isValidPostcode(postcode)).toBe(true);
  });

  it('accepts everything the product’s pattern matches, up to its 8 characters', () => {
    // 1-2 letters, 1-2 digits, an optional letter, a digit, 2 letters.
    expect(isValidPostcode('AB12C3DE')).toBe(true);
    expect(isValidPostcode('ab12c 3de')).toBe(true);
  });

  it.each(['', 'M1', 'HELLO', '12345', 'M1 1A', 'M1 1AEE', 'SW1A 1AAA', 'ABC1 1AA', 'AB123 4CD', 'M1-1AE', '<script>'])('refuses %j', (postcode) => {
    expect(isValidPostcode(postcode)).toBe(false);
  });
});

describe('formatPostcode', () => {
  it('removes all whitespace, upper-cases, and spaces before the last 3 from 5 characters on', () => {
    expect(formatPostcode(' sw1a  1aa ')).toBe('SW1A 1AA');
    expect(formatPostcode('m11ae')).toBe('M1 1AE');
    expect(formatPostcode('m1')).toBe('M1');
    expect(formatPostcode('abcd')).toBe('ABCD');
    expect(compactPostcode('  Ls1 4ap')).toBe('LS14AP');
  });
});
