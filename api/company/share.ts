// Share & Embed for the signed-in operator's company (docs/product.md §14): the link and snippet once a
// custom URL is locked, its QR code, and the setup checklist read from the company's own rows.
import { getTableColumns } from 'drizzle-orm';
import {
  CHECKLIST_KEYS,
  CHECKLIST_LABELS,
  NO_CONTACT_NUMBER,
  NO_CUSTOM_URL,
  embedSnippet,
  hasContactNumber,
  publicLink,
  type ChecklistKey,
} from '#shared/share';
import type { SetupChecklist, ShareKit } from '#shared/types';
import { listCharges } from '../charges/store';
import { findCompanyById, type CompanyRow } from './store';
import { getPricing, type PricingRow } from './pricing-store';
import { countQuotes } from '../quotes/store';
import { pricingRates } from '../platform/db/schema';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound } from '../platform/errors';

// Sized for print: 1200 px is 10 cm at 300 dpi, a business card's QR at 2-3 cm is sharper still;
// a van door takes the SVG, which scales to any size. Level Q survives dirt and scratches (25 %).
const QR_OPTIONS = { errorCorrectionLevel: 'Q', margin: 4 } as const;
const QR_PNG_WIDTH = 1200;
/** qrcode, imported on the first QR asked for: a server start does not load it. */
const qrCode = async () => (await import('qrcode')).default;

/**
 * "Pricing saved": the company's rates differ from the row every new company starts with (no
 * column records a save). A save from the Pricing tab differs unless it puts every value back.
 */
function pricingSet(row: PricingRow): boolean {
  return Object.entries(getTableColumns(pricingRates)).some(
    ([key, column]) => key !== 'id' && key !== 'companyId' && column.hasDefault && row[key as keyof PricingRow] !== column.default,
  );
}

/** A QR code download: its bytes, and the file name it is saved under. */
export interface QrFile<T> {
  body: T;
  fileName: string;
}

export function shareService(deps: Pick<AppDeps, 'db' | 'config'>) {
  const { db, config } = deps;

  const ownCompany = (companyId: number): CompanyRow => {
    const company = findCompanyById(db, companyId);
    if (!company) throw new NotFound('Company not found');
    return company;
  };

  /**
   * The locked slug, or 409 with the reason: without one there is no link to share, and a link to
   * a page whose prices nobody could act on (no phone, no WhatsApp) is not handed out either.
   */
  const lockedSlug = (companyId: number): string => {
    const company = ownCompany(companyId);
    if (!company.customSlug) throw new Conflict(NO_CUSTOM_URL, 'NO_CUSTOM_URL');
    if (!hasContactNumber(company)) throw new Conflict(NO_CONTACT_NUMBER, 'NO_CONTACT_NUMBER');
    return company.customSlug;
  };

  return {
    kit(companyId: number): ShareKit {
      const slug = lockedSlug(companyId);
      return { link: publicLink(config.publicUrl, slug), embedSnippet: embedSnippet(config.publicUrl, slug) };
    },

    async qrPng(companyId: number): Promise<QrFile<Uint8Array<ArrayBuffer>>> {
      const slug = lockedSlug(companyId);
      const QRCode = await qrCode();
      const png = await QRCode.toBuffer(publicLink(config.publicUrl, slug), { ...QR_OPTIONS, type: 'png', width: QR_PNG_WIDTH });
      return { body: new Uint8Array(png), fileName: `${slug}-quote-qr.png` };
    },

    async qrSvg(companyId: number): Promise<QrFile<string>> {
      const slug = lockedSlug(companyId);
      const QRCode = await qrCode();
      const svg = await QRCode.toString(publicLink(config.publicUrl, slug), { ...QR_OPTIONS, type: 'svg' });
      return { body: svg, fileName: `${slug}-quote-qr.svg` };
    },

    checklist(companyId: number): SetupChecklist {
      const company = ownCompany(companyId);
      const done: Record<ChecklistKey, boolean> = {
        pricing: pricingSet(getPricing(db, companyId)),
        // The starter problems are £0: a charge counts once the operator prices one.
        problemCharge: listCharges(db, 'surcharges', companyId, true).some((row) => row.amountPence > 0),
        contact: hasContactNumber(company),
        basePostcode: Boolean(company.basePostcode),
        customUrl: Boolean(company.customSlug),
        logo: Boolean(company.logo),
        // The company's stored quotes, whoever asked for them (the page, the widget elsewhere, a test by the operator).
        firstQuote: countQuotes(db, companyId) > 0,
      };
      const items = CHECKLIST_KEYS.map((key) => ({ key, label: CHECKLIST_LABELS[key], done: done[key] }));
      return { items, done: items.filter((item) => item.done).length, total: items.length };
    },
  };
}

export type ShareService = ReturnType<typeof shareService>;
