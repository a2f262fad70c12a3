// The job report PDF (docs/product.md, "Proof of condition"): the route and the times of a
// completed job, then for pickup and drop-off the photos as thumbnails with when they were taken,
// the checklist, the notes and the signature. Drawn with pdf-lib and the standard Helvetica like
// the receipts (api/documents/pdf.ts), from the job's rows and files at each download.
import type { PDFFont, PDFImage, PDFPage } from 'pdf-lib';
import { BOOKING_STATUS_LABELS, clockTime, type BookingStatus } from '#shared/bookings';
import { PHOTO_SLOT_LABELS, PROOF_STAGE_LABELS, PROOF_STAGES, type PhotoSlot, type ProofStage } from '#shared/proof';
import { printedDate } from './pdf';

export interface ReportPhoto {
  stage: ProofStage;
  kind: 'photo' | 'signature';
  slot: string | null;
  note: string | null;
  signerName: string | null;
  takenAt: string;
  takenBy: string;
  /** A JPEG or PNG to print; none when there is no printable copy (HEIC without a thumbnail, a file too large to print). */
  image?: { bytes: Uint8Array; type: string };
}

export interface JobReport {
  companyName: string;
  reference: string;
  registration: string;
  vehicleType: string;
  pickupPostcode: string;
  destinationPostcode: string;
  driverName: string | null;
  history: { status: BookingStatus; at: string }[];
  conditions: { stage: ProofStage; checklist: { item: string; checked: boolean }[]; notes: string }[];
  photos: ReportPhoto[];
  finishedAt: string;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 50;
const THUMB = { width: 150, height: 112 };
const SIGNATURE = { width: 220, height: 80 };

export const JOB_REPORT_TITLE = 'Job report';
export const NO_PRINTABLE_COPY = 'Photo kept online (no printable copy)';

const when = (iso: string) => `${printedDate(iso)}, ${clockTime(iso)}`;

export async function renderJobReport(report: JobReport): Promise<Uint8Array> {
  const { PDFDocument, rgb, StandardFonts } = await import('pdf-lib');
  const GREY = rgb(0.35, 0.35, 0.35);
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${JOB_REPORT_TITLE} TQ-${report.reference}`);
  pdf.setAuthor(report.companyName);
  pdf.setCreator('RecoveryQuote');
  pdf.setProducer('RecoveryQuote');
  pdf.setCreationDate(new Date(report.finishedAt));
  pdf.setModificationDate(new Date(report.finishedAt));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const printable = new Set(regular.getCharacterSet());
  const clean = (text: string) => Array.from(text.replace(/\r?\n/g, ' '), (ch) => (printable.has(ch.codePointAt(0) ?? 0) ? ch : '?')).join('');

  let page: PDFPage = pdf.addPage([A4.width, A4.height]);
  let y = A4.height - MARGIN;
  const text = (value: string, x: number, size = 10, font: PDFFont = regular, colour = rgb(0, 0, 0)) =>
    page.drawText(clean(value), { x, y, size, font, color: colour });
  const room = (height: number) => {
    if (y - height < MARGIN) {
      page = pdf.addPage([A4.width, A4.height]);
      y = A4.height - MARGIN;
    }
  };
  const down = (by: number) => {
    y -= by;
    room(0);
  };
  /** Lines of at most `width` points. */
  const wrap = (value: string, width: number, size: number): string[] => {
    const lines: string[] = [];
    let line = '';
    for (const word of clean(value).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (regular.widthOfTextAtSize(next, size) > width && line) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  };

  const embed = async (image: NonNullable<ReportPhoto['image']>): Promise<PDFImage | undefined> => {
    try {
      return image.type === 'image/png' ? await pdf.embedPng(image.bytes) : image.type === 'image/jpeg' ? await pdf.embedJpg(image.bytes) : undefined;
    } catch {
      // A file whose structure pdf-lib cannot read is listed without its picture.
      return undefined;
    }
  };
  const drawImage = (image: PDFImage, box: { width: number; height: number }, x: number) => {
    const scale = Math.min(box.width / image.width, box.height / image.height, 1);
    page.drawImage(image, { x, y: y - image.height * scale, width: image.width * scale, height: image.height * scale });
  };

  // The heading: the job, the route and the times.
  text(JOB_REPORT_TITLE, MARGIN, 20, bold);
  down(26);
  text(report.companyName, MARGIN, 12, bold);
  const facts: [string, string][] = [
    ['Reference', `TQ-${report.reference}`],
    ['Vehicle', `${report.registration} (${report.vehicleType})`],
    ['Route', `${report.pickupPostcode} to ${report.destinationPostcode}`],
    ...(report.driverName ? ([['Driver', report.driverName]] as [string, string][]) : []),
  ];
  for (const [label, value] of facts) {
    down(16);
    text(label, MARGIN, 10, bold);
    text(value, 150);
  }
  down(24);
  text('Times', MARGIN, 12, bold);
  for (const step of report.history) {
    down(15);
    text(BOOKING_STATUS_LABELS[step.status], MARGIN, 10, regular, GREY);
    text(when(step.at), 150);
  }

  for (const stage of PROOF_STAGES) {
    const photos = report.photos.filter((p) => p.stage === stage && p.kind === 'photo');
    const signatures = report.photos.filter((p) => p.stage === stage && p.kind === 'signature');
    const condition = report.conditions.find((c) => c.stage === stage);
    if (photos.length === 0 && signatures.length === 0 && !condition) continue;
    down(30);
    room(40);
    text(PROOF_STAGE_LABELS[stage], MARGIN, 14, bold);
    down(8);

    // Photos three to a row, each with its place in the set, its time and its note.
    const columns = 3;
    const gap = (A4.width - 2 * MARGIN - columns * THUMB.width) / (columns - 1);
    for (let i = 0; i < photos.length; i += columns) {
      const row = photos.slice(i, i + columns);
      room(THUMB.height + 50);
      y -= 6;
      const top = y;
      let lowest = y;
      for (const [n, photo] of row.entries()) {
        const x = MARGIN + n * (THUMB.width + gap);
        y = top;
        const image = photo.image && (await embed(photo.image));
        if (image) drawImage(image, THUMB, x);
        else {
          y -= 20;
          text(NO_PRINTABLE_COPY, x, 8, regular, GREY);
          y += 20;
        }
        y = top - THUMB.height - 12;
        text(photo.slot ? (PHOTO_SLOT_LABELS[photo.slot as PhotoSlot] ?? photo.slot) : 'Photo', x, 9, bold);
        y -= 11;
        text(`${when(photo.takenAt)}, ${photo.takenBy}`, x, 8, regular, GREY);
        for (const line of photo.note ? wrap(photo.note, THUMB.width, 8).slice(0, 2) : []) {
          y -= 10;
          text(line, x, 8);
        }
        lowest = Math.min(lowest, y);
      }
      y = lowest - 8;
    }

    if (condition) {
      down(18);
      text('Checklist', MARGIN, 11, bold);
      for (const entry of condition.checklist) {
        down(14);
        text(entry.checked ? 'Yes' : 'No', MARGIN, 10, bold);
        text(entry.item, MARGIN + 30);
      }
      if (condition.notes) {
        down(18);
        text('Notes', MARGIN, 11, bold);
        for (const line of wrap(condition.notes, A4.width - 2 * MARGIN, 10)) {
          down(14);
          text(line, MARGIN);
        }
      }
    }

    for (const signature of signatures) {
      down(20);
      room(SIGNATURE.height + 40);
      text('Signature', MARGIN, 11, bold);
      down(8);
      const image = signature.image && (await embed(signature.image));
      if (image) {
        drawImage(image, SIGNATURE, MARGIN);
        y -= SIGNATURE.height;
      }
      down(14);
      text(`${signature.signerName ?? ''}, ${when(signature.takenAt)}`, MARGIN, 10);
    }
  }
  return pdf.save({ useObjectStreams: false });
}
