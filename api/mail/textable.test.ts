// Texts go only to UK mobiles, and Irish mobiles when the operator allows them: every premium,
// satellite, personal, shared-cost, VoIP, pager or foreign number is refused.
import { describe, expect, it } from 'vitest';
import { isTextable } from './textable';

const UK_ONLY = { irishMobiles: false };
const WITH_IRELAND = { irishMobiles: true };

describe('isTextable', () => {
  it('takes UK mobiles, and Ofcom’s drama range the examples use', () => {
    for (const n of ['+447400123456', '+447500123456', '+447537123456', '+447700900123']) expect(isTextable(n, UK_ONLY), n).toBe(true);
  });

  it('refuses personal, pager, premium, shared-cost, landline and non-geographic UK numbers', () => {
    // 070 personal, 076 pager, 09 premium, 0845 shared cost, 0871, 020 London, 0300, 055 corporate, 056 VoIP
    for (const n of [
      '+447012345678',
      '+447600123456',
      '+449098765432',
      '+448451234567',
      '+448712345678',
      '+442079460000',
      '+443001234567',
      '+445512345678',
      '+445612345678',
    ]) {
      expect(isTextable(n, WITH_IRELAND), n).toBe(false);
    }
  });

  it('refuses satellite, premium and other countries’ numbers whatever the setting', () => {
    // +881 and +882 satellite and international networks, US 900 premium, Zimbabwe and Latvia mobiles, a US mobile-or-fixed number
    for (const n of ['+881612345678', '+882161234567', '+19005551234', '+263771234567', '+37120000000', '+12025550123']) {
      expect(isTextable(n, WITH_IRELAND), n).toBe(false);
    }
  });

  it('takes Irish mobiles only when the operator allows them, and never Irish landlines or VoIP', () => {
    expect(isTextable('+353851234567', UK_ONLY)).toBe(false);
    expect(isTextable('+353851234567', WITH_IRELAND)).toBe(true);
    expect(isTextable('+353871234567', WITH_IRELAND)).toBe(true);
    expect(isTextable('+35312345678', WITH_IRELAND)).toBe(false);
    expect(isTextable('+353761234567', WITH_IRELAND)).toBe(false);
  });

  it('refuses what is not a number at all', () => {
    for (const n of ['', '+', '+44', 'not a number', '+4477009001234']) expect(isTextable(n, WITH_IRELAND), n).toBe(false);
  });
});
