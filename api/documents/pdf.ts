// A document as a PDF (docs/product.md §22), drawn with pdf-lib from what was frozen when it was
// issued, so the same document always prints the same. The standard Helvetica needs no font file;
// it writes WinAnsi, which has £ and the en-GB punctuation: any other character (a name in
// another script) is printed as '?' rather than failing the download.
import type { PDFFont, PDFPage } from 'pdf-lib';
import { DOCUMENT_TITLES, documentNumber, type DocumentKind } from '#shared/documents';
import { formatPence } from '#shared/money';
import { formatPhoneNational } from '#shared/phone-number';
import type { DocumentLine, DocumentTotals } from './vat';

/** Everything a document prints besides its lines and totals, frozen with it. */
export interface DocumentDetails {
  seller: { name: string; address: string | null; phone: string | null; email: string | null; vatNumber: string | null };
  /** Only on a full VAT invoice: the name the motorist gave at booking. */
  customerName: string | null;
  /** Only on a full VAT invoice: the address the customer gave when asking for it; absent on documents issued before it was asked. */
  customerAddress?: string | null;
  /** The quote's reference, without TQ-. */
  reference: string;
  registration: string;
  pickupPostcode: string;
  destinationPostcode: string;
  vehicleType: string;
  /** The UK date the job was completed (the time of supply), YYYY-MM-DD. */
  supplyDate: string;
  /** How it was paid, as printed beside the amount ('Deposit paid by card', 'Paid: deposit by card, balance in cash'). */
  paidAs: string | null;
  /** The balance line's words when not the plain 'Balance due' ('Balance due on account'); absent on documents issued before it. */
  balanceAs?: string | null;
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

/** Above the balance's pay link on an unpaid receipt or invoice. */
export const PAY_LINK_LINE = 'Pay the balance by card:';

export interface PrintableDocument {
  /** The balance's pay link, while a balance is due and a link was made: printed under the totals, never frozen (docs/product.md §22). */
  payLink?: string | null;
  kind: PrintedKind;
  number: number;
  issuedAt: string;
  lines: DocumentLine[];
  totals: DocumentTotals;
  details: DocumentDetails;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
/** Where the right-hand column (the dates, the totals' labels) starts. */
const FACTS_X = 340;

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
  /**
   * `value` in lines no wider than `width`: broken between words, and a word wider than the whole
   * width broken where it must. Every field is printed this way, so none runs into another
   * whatever its length (an address of 300 characters, a long name, a long line of charges).
   */
  const wrap = (value: string, width: number, size = 10, font: PDFFont = regular): string[] => {
    const fits = (v: string) => font.widthOfTextAtSize(v, size) <= width;
    const lines: string[] = [];
    let line = '';
    for (const word of clean(value).split(/\s+/).filter(Boolean)) {
      const joined = line ? `${line} ${word}` : word;
      if (fits(joined)) {
        line = joined;
        continue;
      }
      if (line) lines.push(line);
      line = '';
      let rest = word;
      while (!fits(rest)) {
        let cut = rest.length - 1;
        while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    if (line) lines.push(line);
    return lines.length > 0 ? lines : [''];
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

  // The heading: title and number, then the seller in the left column beside the dates.
  text(title, MARGIN, 20, bold);
  if (numbered) right(`No. ${documentNumber(doc.number)}`, rightEdge, 12, bold);
  const sellerWidth = FACTS_X - MARGIN - 12;
  for (const [i, line] of wrap(d.seller.name, sellerWidth, 12, bold).entries()) {
    down(i === 0 ? 28 : 15);
    text(line, MARGIN, 12, bold);
  }
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
    // Stored in E.164; printed as a UK reader dials it ("0161 496 0321").
    ...(d.seller.phone ? [formatPhoneNational(d.seller.phone)] : []),
    ...(d.seller.email ? [d.seller.email] : []),
    ...(vat && d.seller.vatNumber ? [`VAT number ${d.seller.vatNumber}`] : []),
  ].flatMap((line) => wrap(line, sellerWidth));
  const rows = Math.max(sellerLines.length, facts.length);
  for (let i = 0; i < rows; i += 1) {
    down(15);
    if (sellerLines[i]) text(sellerLines[i], MARGIN, 10, regular, GREY);
    if (facts[i]) {
      text(facts[i][0], FACTS_X, 10, regular, GREY);
      right(facts[i][1], rightEdge);
    }
  }

  // The job: each fact wrapped beside its label; an account's document first names whom it bills.
  const billTo = account
    ? [
        account.name,
        ...(account.address?.split(/\r?\n/).filter((l) => l.trim() !== '') ?? []),
        ...(account.vatNumber ? [`VAT number ${account.vatNumber}`] : []),
      ]
    : [];
  const jobFacts: [string, string][] = [
    ...(account ? [['Bill to', billTo.join('\n')] as [string, string]] : []),
    ...(d.customerName ? [['Customer', d.customerName] as [string, string]] : []),
    ...(d.customerAddress ? [['Address', d.customerAddress] as [string, string]] : []),
    ...(!account || doc.kind === 'delivery_note'
      ? ([
          ['Vehicle', `${d.registration} (${d.vehicleType})`],
          ['Recovery', `${d.pickupPostcode} to ${d.destinationPostcode}`],
        ] as [string, string][])
      : []),
    ...(d.original
      ? [['Credits', `${d.original.title} No. ${documentNumber(d.original.number)} of ${printedDate(d.original.issuedAt)}`] as [string, string]]
      : []),
  ];
  for (const [i, [label, value]] of jobFacts.entries()) {
    const lines = value.split(/\r?\n/).flatMap((part) => wrap(part, rightEdge - 140));
    for (const [j, line] of lines.entries()) {
      down(i === 0 && j === 0 ? 28 : 15);
      if (j === 0) text(label, MARGIN, 10, bold);
      text(line, 140);
    }
  }

  // The lines: description, then net, rate and VAT on a VAT document, and the amount.
  down(30);
  // Right edges of the figures' columns; a receipt has only the amount.
  const columns = { net: 330, rate: 395, vat: 460, amount: rightEdge };
  const prices = !d.withoutPrices;
  // The description wraps short of the first figure's column, as wide as its widest figure; without prices, across the page.
  const firstFigures = doc.lines.map((l) => formatPence(vat ? l.netPence : l.grossPence));
  const firstWidth = Math.max(regular.widthOfTextAtSize(vat ? 'Net' : 'Amount', 10), ...firstFigures.map((f) => regular.widthOfTextAtSize(f, 10)));
  const descriptionWidth = prices ? (vat ? columns.net : columns.amount) - firstWidth - 12 - MARGIN : rightEdge - MARGIN;
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
    const label = wrap(line.label, descriptionWidth);
    down(16);
    text(label[0], MARGIN);
    if (vat && prices) {
      right(formatPence(line.netPence), columns.net);
      right(`${line.vatRatePercent}%`, columns.rate);
      right(formatPence(line.vatPence), columns.vat);
    }
    if (prices) right(formatPence(line.grossPence), columns.amount);
    for (const more of label.slice(1)) {
      down(13);
      text(more, MARGIN);
    }
    for (const detail of line.detail ? wrap(line.detail, descriptionWidth - 8, 8) : []) {
      down(12);
      text(detail, MARGIN + 8, 8, regular, GREY);
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
    if (t.paidPence > 0) totals.push([d.paidAs ?? 'Paid by card', formatPence(t.paidPence), false]);
    // Paid in full, the paid line says how: no line of nothing due.
    if (t.balancePence > 0 && (t.paidPence > 0 || d.balanceAs)) totals.push([d.balanceAs ?? 'Balance due', formatPence(t.balancePence), true]);
  }
  // Each label wrapped in its own column, clear of the amounts (the widest, £10,000.00 bold, is under 60 points).
  const amountWidth = 70;
  for (const [label, amount, strong] of totals) {
    const font = strong ? bold : regular;
    for (const [i, line] of wrap(label, rightEdge - amountWidth - FACTS_X, 10, font).entries()) {
      down(i === 0 ? 16 : 13);
      text(line, FACTS_X, 10, font);
      if (i === 0) right(amount, rightEdge, 10, font);
    }
  }

  if (doc.payLink && t.balancePence > 0) {
    down(20);
    text(PAY_LINK_LINE, MARGIN, 10, bold);
    // A link wraps at any character (it has no spaces to break at), across the page's width.
    for (const part of doc.payLink.match(/.{1,90}/g) ?? []) {
      down(13);
      text(part, MARGIN, 9, regular);
    }
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
