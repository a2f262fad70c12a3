// Shapes company rows for JSON: money in pounds, the logo as a cacheable URL, and nothing
// private in the public view (docs/architecture.md §3–§4).
import { penceToPounds } from '#shared/money';
import type { OnlineQuotes } from '#shared/share';
import type { Company, FeatureBlock, PublicCompany } from '#shared/types';
import type { CompanyRow } from './store';

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
    offerBooking: row.offerBooking,
    offerWhatsapp: row.offerWhatsapp,
    offerCall: row.offerCall,
    retentionMonths: row.retentionMonths,
  };
}

/** What the hosted page shows of a company: its public view, and the postcode district it is based in. */
export type HostedCompany = PublicCompany & { baseDistrict?: string | null };

/** The page names the district of the base postcode (M1 of M1 1AE), never the full postcode. */
export const toHostedCompany = (row: CompanyRow, publicUrl: string): HostedCompany => ({
  ...toPublicCompany(row, publicUrl),
  baseDistrict: row.basePostcode?.split(' ')[0] || null,
});

/** "Serving {district} and within {radius} miles", when the company shows its area and has a base postcode. */
export function serviceAreaText(company: HostedCompany): string | null {
  if (!company.showServiceArea || !company.baseDistrict) return null;
  return `Serving ${company.baseDistrict} and within ${Number(company.serviceRadius.toFixed(2))} miles`;
}

/** The three feature blocks when the company shows them; a block with no title and no description is left out. */
export function featureBlocks(company: PublicCompany): FeatureBlock[] {
  if (!company.showFeatures) return [];
  return ([1, 2, 3] as const)
    .map((n) => ({ title: company[`feature${n}Title`] ?? '', description: company[`feature${n}Description`] ?? '', icon: company[`feature${n}Icon`] ?? '' }))
    .filter((block) => block.title.trim() || block.description.trim());
}

/** `onlineQuotes` is what the company's customers see now (api/company/access.ts decides it). */
export function toCompany(row: CompanyRow, publicUrl: string, onlineQuotes: OnlineQuotes): Company {
  return {
    ...toPublicCompany(row, publicUrl),
    customDomain: row.customDomain,
    basePostcode: row.basePostcode,
    privacyText: row.privacyText,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    onlineQuotes,
  };
}

/** What the privacy page shows of a company: its hosted view, its own notice (null: the default) and where it is. */
export type PrivacyCompany = HostedCompany & { privacyText: string | null; businessAddress: string | null };

export const toPrivacyCompany = (row: CompanyRow, publicUrl: string): PrivacyCompany => ({
  ...toHostedCompany(row, publicUrl),
  privacyText: row.privacyText,
  businessAddress: row.businessAddress,
});
