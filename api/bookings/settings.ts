import type { BookingSettings } from '#shared/booking-responses';
import { REVIEW_MODES } from '#shared/bookings';
import { findCompanyById, updateCompany, type CompanyPatch, type CompanyRow } from '../company/store';
import { write } from '../platform/db/write';
import { NotFound } from '../platform/errors';
import { textsOff } from './alerts';
import { type BookingContext, type BookingSettingsBody, parseOrigins } from './context';

export function settingsPart(ctx: BookingContext) {
  const { db, smsReady, smsCodes } = ctx;
  const toSettings = (company: CompanyRow): BookingSettings => ({
    responseMinutes: company.bookingResponseMinutes,
    smsNumber: company.bookingSmsNumber,
    smsNumberConfirmed: company.bookingSmsNumber !== null && company.bookingSmsVerifiedAt !== null,
    offerBooking: company.offerBooking,
    offerWhatsapp: company.offerWhatsapp,
    offerCall: company.offerCall,
    textIrishMobiles: company.textIrishMobiles,
    bookingOrigins: parseOrigins(company.bookingOrigins),
    smsConfigured: smsReady,
    motoristTextsOff: textsOff(company.motoristTextsOff),
    reviewMode: REVIEW_MODES.find((mode) => mode === company.reviewMode) ?? 'off',
    reviewUrl: company.reviewUrl,
  });

  return {
    /** Confirming the booking text number by a texted code (api/bookings/sms-verification.ts). */
    smsCodes,

    settings(companyId: number): BookingSettings {
      const company = findCompanyById(db, companyId);
      if (!company) throw new NotFound('Company not found');
      return toSettings(company);
    },

    async updateSettings(companyId: number, body: BookingSettingsBody): Promise<BookingSettings> {
      const patch: CompanyPatch = {};
      if (body.responseMinutes !== undefined) patch.bookingResponseMinutes = body.responseMinutes;
      if (body.smsNumber !== undefined && body.smsNumber !== findCompanyById(db, companyId)?.bookingSmsNumber) {
        // A new number is not confirmed: no alert text goes to it until its code is typed.
        patch.bookingSmsNumber = body.smsNumber;
        patch.bookingSmsVerifiedAt = null;
        patch.bookingSmsCodeHash = null;
        patch.bookingSmsCodeTo = null;
        patch.bookingSmsCodeExpiresAt = null;
        patch.bookingSmsCodeTries = 0;
      }
      if (body.offerBooking !== undefined) patch.offerBooking = body.offerBooking;
      if (body.offerWhatsapp !== undefined) patch.offerWhatsapp = body.offerWhatsapp;
      if (body.offerCall !== undefined) patch.offerCall = body.offerCall;
      if (body.textIrishMobiles !== undefined) patch.textIrishMobiles = body.textIrishMobiles;
      if (body.bookingOrigins !== undefined) patch.bookingOrigins = JSON.stringify(body.bookingOrigins);
      if (body.motoristTextsOff !== undefined) patch.motoristTextsOff = JSON.stringify(body.motoristTextsOff);
      if (body.reviewMode !== undefined) patch.reviewMode = body.reviewMode;
      if (body.reviewUrl !== undefined) patch.reviewUrl = body.reviewUrl;
      if (Object.keys(patch).length === 0) return this.settings(companyId);
      return toSettings(await write(db, () => updateCompany(db, companyId, patch)));
    },
  };
}
