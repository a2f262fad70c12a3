// Shapes company rows for JSON: money in pounds, the logo as a cacheable URL, and nothing
// private in the public view (DESIGN.md §3–§4).
import { penceToPounds } from '../../shared/money';
import type { Company, PublicCompany } from '../../shared/types';
import type { CompanyRow } from '../db/companies';

export const logoUrl = (row: CompanyRow, publicUrl: string): string | null =>
  row.logo ? `${publicUrl}/api/company/${row.id}/logo?v=${row.logo.slice(0, 16)}` : null;

export function toPublicCompany(row: CompanyRow, publicUrl: string): PublicCompany {
  return {
    id: row.id,
    name: row.name,
    logo: logoUrl(row, publicUrl),
    primaryColour: row.primaryColour,
    secondaryColour: row.secondaryColour,
    accentColour: row.accentColour,
    backgroundColour: row.backgroundColour,
    textColour: row.textColour,
    phone: row.phone,
    whatsapp: row.whatsapp,
    email: row.email,
    preferredContact: row.preferredContact,
    customSlug: row.customSlug,
    showPriceBreakdown: row.showPriceBreakdown,
    companyDescription: row.companyDescription,
    serviceRadius: row.serviceRadiusHundredths / 100,
    extraRadiusFee: penceToPounds(row.extraRadiusFeePence),
    showServiceArea: row.showServiceArea,
    showFeatures: row.showFeatures,
    enablePriceRounding: row.enablePriceRounding,
    priceRoundingMultiple: row.priceRoundingMultiple === 10 ? 10 : 5,
    showPriceDisclaimer: row.showPriceDisclaimer,
    passengerLimit: row.passengerLimit,
    pricePerPassenger: penceToPounds(row.pricePerPassengerPence),
    feature1Title: row.feature1Title,
    feature1Description: row.feature1Description,
    feature1Icon: row.feature1Icon,
    feature2Title: row.feature2Title,
    feature2Description: row.feature2Description,
    feature2Icon: row.feature2Icon,
    feature3Title: row.feature3Title,
    feature3Description: row.feature3Description,
    feature3Icon: row.feature3Icon,
  };
}

export function toCompany(row: CompanyRow, publicUrl: string): Company {
  return {
    ...toPublicCompany(row, publicUrl),
    customDomain: row.customDomain,
    basePostcode: row.basePostcode,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
