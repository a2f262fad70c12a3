// A document as a PDF (docs/product.md §22), drawn with pdf-lib from what was frozen when it was
// issued, so the same document always prints the same. The standard Helvetica needs no font file;
// it writes WinAnsi, which has £ and the en-GB punctuation: any other character (a name in
// another script) is printed as '?' rather than failing the download.
import type { PDFFont, PDFPage } from 'pdf-lib';
import { DOCUMENT_TITLES, documentNumber, type DocumentKind } from '#shared/documents';
import { formatPence } from '#shared/money';
import type { DocumentLine, DocumentTotals } from './vat';

/** Everything a document prints besides its lines and totals, frozen with it. */
export interface DocumentDetails {
  seller: { name: string; address: string | null; phone: string | null; email: string | null; vatNumber: string | null };
  /** Only on a full VAT invoice: the name the motorist gave at booking. */
  customerName: string | null;
  /** The quote's reference, without TQ-. */
  reference: string;
  registration: string;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  /** The UK date the job was completed (the time of supply), YYYY-MM-DD. */
  supplyDate: string;
  /** How it was paid at booking, as printed beside the amount ('Deposit paid by card'). */
  paidAs: string | null;
  /** A credit note's original: its title and number. */
  original: { title: string; number: number; issuedAt: string } | null;
  /** A trade account's invoice, credit note or statement (docs/product.md §26): whom it is billed to, and when it is due. */
  account?: { name: string; address: string | null; vatNumber: string | null; code: string; dueDate: string | null; period: string | null; po?: string | null };
  /** A delivery note printed without its prices (the account asked for none). */
  withoutPrices?: boolean;
}

/** What is printed besides the documents of the sequence: a job on account's delivery note, an account's statement. */
export type PrintedKind = DocumentKind | 'delivery_note' | 'statement';
const PRINTED_TITLES: Record<PrintedKind, string> = { ...DOCUMENT_TITLES, delivery_note: 'Delivery note', statement: 'Statement' };

export interface PrintableDocument {
  kind: PrintedKind;
  number: number;
  issuedAt: string;
  lines: DocumentLine[];
  totals: DocumentTotals;
  details: DocumentDetails;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;

const ukDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Europe/London' });
/** `26 November 2026` from an ISO time, or from a UK day (YYYY-MM-DD, read at noon so no zone moves it). */
export const printedDate = (value: string) => ukDate.format(new Date(value.length === 10 ? `${value}T12:00:00Z` : value));

const isVatDocument = (doc: PrintableDocument) =>
  doc.kind === 'simplified_invoice' || doc.kind === 'vat_invoice' || (doc.kind === 'credit_note' && doc.details.seller.vatNumber !== null);

export async function renderDocumentPdf(doc: PrintableDocument): Promise<Uint8Array> {
  // Loaded at the first download, not at every server start: most processes never draw a PDF.
  const { PDFDocument, rgb, StandardFonts } = await import('pdf-lib');
  const GREY = rgb(0.35, 0.35, 0.35);
  const RULE = rgb(0.8, 0.8, 0.8);
  const pdf = await PDFDocument.create();
  const title = PRINTED_TITLES[doc.kind];
  // A delivery note and a statement are not numbered documents: the job's reference or the account names them.
  const numbered = doc.kind !== 'delivery_note' && doc.kind !== 'statement';
  pdf.setTitle(numbered ? `${title} ${documentNumber(doc.number)}` : title);
  pdf.setAuthor(doc.details.seller.name);
  pdf.setCreator('RecoveryQuote');
  pdf.setProducer('RecoveryQuote');
  // The same bytes whenever it is printed: the dates are the document's own.
  pdf.setCreationDate(new Date(doc.issuedAt));
  pdf.setModificationDate(new Date(doc.issuedAt));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const printable = new Set(regular.getCharacterSet());
  const clean = (text: string) => Array.from(text, (ch) => (printable.has(ch.codePointAt(0) ?? 0) ? ch : '?')).join('');

  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const text = (value: string, x: number, size = 10, font: PDFFont = regular, colour = rgb(0, 0, 0)) =>
    page.drawText(clean(value), { x, y, size, font, color: colour });
  const right = (value: string, xRight: number, size = 10, font: PDFFont = regular) => {
    const v = clean(value);
    page.drawText(v, { x: xRight - font.widthOfTextAtSize(v, size), y, size, font });
  };
  const fitWidth = (value: string, width: number, size: number) => {
    let v = clean(value);
    while (v.length > 1 && regular.widthOfTextAtSize(v, size) > width) v = `${v.slice(0, -2)}…`;
    return v;
  };
  const down = (by: number) => {
    y -= by;
    if (y < MARGIN + 40) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
  };
  const rule = () => page.drawLine({ start: { x: MARGIN, y: y + 4 }, end: { x: A4.width - MARGIN, y: y + 4 }, thickness: 0.6, color: RULE });

  const d = doc.details;
  const vat = isVatDocument(doc);
  const rightEdge = A4.width - MARGIN;

  // The heading: title and number, then the seller.
  text(title, MARGIN, 20, bold);
  if (numbered) right(`No. ${documentNumber(doc.number)}`, rightEdge, 12, bold);
  down(28);
  text(d.seller.name, MARGIN, 12, bold);
  const account = d.account;
  const facts: [string, string][] = account
    ? [
        ['Date of issue', printedDate(doc.issuedAt)],
        ...(account.period ? ([['Jobs completed in', account.period]] as [string, string][]) : []),
        ...(account.dueDate ? ([['Due date', printedDate(account.dueDate)]] as [string, string][]) : []),
        ['Account', account.code],
        ...(doc.kind === 'delivery_note'
          ? ([
              ['Date of job', printedDate(d.supplyDate)],
              ['Reference', `TQ-${d.reference}`],
            ] as [string, string][])
          : []),
        ...(account.po ? ([['Purchase order', account.po]] as [string, string][]) : []),
      ]
    : [
        ['Date of issue', printedDate(doc.issuedAt)],
        [doc.kind === 'credit_note' ? 'Job completed' : vat ? 'Time of supply' : 'Date of job', printedDate(d.supplyDate)],
        ['Reference', `TQ-${d.reference}`],
      ];
  const sellerLines = [
    ...(d.seller.address?.split(/\r?\n/).filter((l) => l.trim() !== '') ?? []),
    ...(d.seller.phone ? [d.seller.phone] : []),
    ...(d.seller.email ? [d.seller.email] : []),
  ];
  if (vat && d.seller.vatNumber) sellerLines.push(`VAT number ${d.seller.vatNumber}`);
  const rows = Math.max(sellerLines.length, facts.length);
  for (let i = 0; i < rows; i += 1) {
    down(15);
    if (sellerLines[i]) text(sellerLines[i], MARGIN, 10, regular, GREY);
    if (facts[i]) {
      text(facts[i][0], 340, 10, regular, GREY);
      right(facts[i][1], rightEdge);
    }
  }

  down(28);
  if (account) {
    text('Bill to', MARGIN, 10, bold);
    text(account.name, 140);
    for (const line of [
      ...(account.address?.split(/\r?\n/).filter((l) => l.trim() !== '') ?? []),
      ...(account.vatNumber ? [`VAT number ${account.vatNumber}`] : []),
    ]) {
      down(14);
      text(line, 140, 10, regular, GREY);
    }
  }
  if (d.customerName) {
    text('Customer', MARGIN, 10, bold);
    text(d.customerName, 140);
    down(15);
  }
  if (!account || doc.kind === 'delivery_note') {
    if (account) down(15);
    text('Vehicle', MARGIN, 10, bold);
    text(`${d.registration} (${d.vehicleType})`, 140);
    down(15);
    text('Recovery', MARGIN, 10, bold);
    text(`${d.pickupPostcode} to ${d.destinationPostcode}`, 140);
  }
  if (d.original) {
    down(15);
    text('Credits', MARGIN, 10, bold);
    text(`${d.original.title} No. ${documentNumber(d.original.number)} of ${printedDate(d.original.issuedAt)}`, 140);
  }

  // The lines: description, then net, rate and VAT on a VAT document, and the amount.
  down(30);
  // Right edges of the figures' columns; a receipt has only the amount.
  const columns = { net: 330, rate: 395, vat: 460, amount: rightEdge };
  const prices = !d.withoutPrices;
  const descriptionWidth = (vat ? 270 : 400) - 10;
  text('Description', MARGIN, 10, bold);
  if (vat && prices) {
    right('Net', columns.net, 10, bold);
    right('VAT rate', columns.rate, 10, bold);
    right('VAT', columns.vat, 10, bold);
  }
  if (prices) right('Amount', columns.amount, 10, bold);
  down(8);
  rule();
  for (const line of doc.lines) {
    down(16);
    text(fitWidth(line.label, descriptionWidth, 10), MARGIN);
    if (vat && prices) {
      right(formatPence(line.netPence), columns.net);
      right(`${line.vatRatePercent}%`, columns.rate);
      right(formatPence(line.vatPence), columns.vat);
    }
    if (prices) right(formatPence(line.grossPence), columns.amount);
    if (line.detail) {
      down(12);
      text(fitWidth(line.detail, descriptionWidth, 8), MARGIN + 8, 8, regular, GREY);
    }
  }
  down(10);
  rule();

  // The totals.
  const t = doc.totals;
  const totals: [string, string, boolean][] = [];
  if (!prices) {
    // A delivery note without prices: no totals.
  } else if (doc.kind === 'statement') {
    totals.push(['Left to pay', formatPence(t.balancePence), true]);
    if (t.paidPence > 0) totals.push(['Of which overdue', formatPence(t.paidPence), true]);
  } else if (doc.kind === 'credit_note') {
    if (vat) totals.push(['Net credited', formatPence(t.netPence), false], ['VAT credited', formatPence(t.vatPence), false]);
    totals.push(['Total credited', formatPence(t.grossPence), true]);
  } else {
    if (vat) totals.push(['Total net', formatPence(t.netPence), false], ['Total VAT', formatPence(t.vatPence), false]);
    totals.push([vat ? 'Total (VAT included)' : 'Total', formatPence(t.grossPence), true]);
    if (t.paidPence > 0) totals.push([d.paidAs ?? 'Paid by card', formatPence(t.paidPence), false], ['Balance due', formatPence(t.balancePence), true]);
  }
  for (const [label, amount, strong] of totals) {
    down(16);
    text(label, 340, 10, strong ? bold : regular);
    right(amount, rightEdge, 10, strong ? bold : regular);
  }

  down(36);
  const footer =
    doc.kind === 'delivery_note'
      ? 'Delivered on account: no payment was taken. The job is invoiced with the account’s monthly invoice.'
      : doc.kind === 'statement'
        ? 'Amounts in pounds sterling (GBP), VAT included.'
        : account
          ? doc.kind === 'credit_note'
            ? 'The amount credited is taken off the account’s balance.'
            : `Payment due by ${account.dueDate ? printedDate(account.dueDate) : 'the due date'}. Amounts in pounds sterling (GBP).`
          : doc.kind === 'credit_note'
            ? 'The amount credited has been refunded to the card it was paid with.'
            : vat
              ? `VAT at ${doc.lines[0]?.vatRatePercent ?? 20}% is included in the total. Amounts in pounds sterling (GBP).`
              : 'Amounts in pounds sterling (GBP).';
  text(footer, MARGIN, 9, regular, GREY);
  return pdf.save({ useObjectStreams: false });
}
