// Every document kind drawn with every field at its longest (a 300-character business address,
// a 120-character company name, an 80-character customer name, 20 lines of charges with long
// labels, a long email address): read back with `pdftotext -bbox` (poppler-utils), no word's box
// overlaps another's, every word is on the page, and the address, the dates and the totals are
// each there whole. Before the fields wrapped, a long address line ran into the dates beside it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocumentKind } from '#shared/documents';
import { renderDocumentPdf, type PrintableDocument } from './pdf';
import type { DocumentLine } from './vat';

const scratch = mkdtempSync(path.join(tmpdir(), 'pdf-layout-'));
let files = 0;

interface Word {
  page: number;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  text: string;
}

/** The words pdftotext finds, each with its box, page by page. */
function wordsOf(bytes: Uint8Array): { words: Word[]; pageWidth: number } {
  files += 1;
  const file = path.join(scratch, `doc-${files}.pdf`);
  writeFileSync(file, bytes);
  const run = spawnSync('/usr/bin/pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  if (run.error || run.status !== 0) throw new Error(`pdftotext failed (apt-get install poppler-utils): ${run.error?.message ?? run.stderr}`);
  const words: Word[] = [];
  let page = 0;
  let pageWidth = 0;
  for (const line of run.stdout.split('\n')) {
    const p = line.match(/<page width="([\d.]+)"/);
    if (p) {
      page += 1;
      pageWidth = Number(p[1]);
      continue;
    }
    const w = line.match(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/);
    if (w) words.push({ page, xMin: Number(w[1]), yMin: Number(w[2]), xMax: Number(w[3]), yMax: Number(w[4]), text: fromXml(w[5]) });
  }
  return { words, pageWidth };
}
const fromXml = (text: string) => text.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"');

/** Pairs of words whose boxes overlap by more than a hair (glyph boxes of neighbouring lines may touch). */
function overlaps(words: Word[]): [string, string][] {
  const found: [string, string][] = [];
  for (let i = 0; i < words.length; i += 1) {
    for (let j = i + 1; j < words.length; j += 1) {
      const a = words[i];
      const b = words[j];
      if (a.page !== b.page) continue;
      const x = Math.min(a.xMax, b.xMax) - Math.max(a.xMin, b.xMin);
      const y = Math.min(a.yMax, b.yMax) - Math.max(a.yMin, b.yMin);
      if (x > 0.5 && y > 1) found.push([a.text, b.text]);
    }
  }
  return found;
}

const squeeze = (text: string) => text.replace(/\s+/g, '');
const ADDRESS =
  `Unit 4B, The Very Long Industrial Estate Name That Goes On, Ring Road North, ${'Westhoughton-under-Lyne-'.repeat(3)}Industrial Park, Greater Manchester Combined Authority Area, Birmingham B1 1AA, United Kingdom of Great Britain and Northern Ireland, PO Box 1234567`.slice(
    0,
    300,
  );
const COMPANY = 'Aardvark & Sons Twenty-Four Hour Vehicle Recovery, Roadside Assistance and Transport Services of the North West Ltd'.slice(0, 120);
const CUSTOMER = 'Alexandra Catherine Montgomery-Fitzwilliam Featherstonehaugh-Cholmondeley-Smythe'.slice(0, 80);

function doc(kind: DocumentKind): PrintableDocument {
  const lines: DocumentLine[] = Array.from({ length: 20 }, (_, i) => ({
    label: `Charge ${i + 1}: specialist low-loader winching for a vehicle in a ditch, per hour`,
    netPence: 1_000_000 + i,
    vatRatePercent: 20,
    vatPence: 200_000,
    grossPence: 1_200_000 + i,
  }));
  const vat = kind !== 'receipt';
  return {
    kind,
    number: 123456,
    issuedAt: '2026-11-28T12:00:00.000Z',
    lines,
    totals: { netPence: 20_000_190, vatPence: 4_000_000, grossPence: 24_000_190, paidPence: 4_800_038, balancePence: 19_200_152 },
    details: {
      seller: {
        name: COMPANY,
        address: ADDRESS,
        phone: '+441614960321',
        email: 'accounts.department.for.vehicle.recovery.invoices@aardvark-and-sons-recovery-services.example.co.uk',
        vatNumber: vat ? 'GB123456789' : null,
      },
      customerName: kind === 'vat_invoice' ? CUSTOMER : null,
      customerAddress: kind === 'vat_invoice' ? ADDRESS : null,
      reference: 'KJAECF76R',
      registration: 'AB12 CDE',
      pickupPostcode: 'SW1A 1AA',
      destinationPostcode: 'EC1A 1BB',
      vehicleType: 'Large panel van with twin rear wheels and a tail lift',
      supplyDate: '2026-11-27',
      paidAs: 'Paid: deposit by card, balance by bank transfer',
      balanceAs: 'Balance due on account',
      original: kind === 'credit_note' ? { title: 'Simplified VAT invoice', number: 123455, issuedAt: '2026-11-27T10:00:00.000Z' } : null,
    },
  };
}

describe('a document holds every field at its longest', () => {
  it.each(['receipt', 'simplified_invoice', 'vat_invoice', 'credit_note'] as const)(
    '%s: no text overlaps, all of it on the page, and the address, dates and totals whole',
    async (kind) => {
      const { words, pageWidth } = wordsOf(await renderDocumentPdf(doc(kind)));
      expect(overlaps(words)).toEqual([]);
      for (const w of words) {
        expect(w.xMin, w.text).toBeGreaterThanOrEqual(0);
        expect(w.xMax, w.text).toBeLessThanOrEqual(pageWidth);
      }
      const all = squeeze(words.map((w) => w.text).join(''));
      // The seller's column (left of the dates) holds the whole address, the number in national format.
      const left = squeeze(
        words
          .filter((w) => w.page === 1 && w.xMax < 335)
          .map((w) => w.text)
          .join(''),
      );
      expect(left).toContain(squeeze(ADDRESS));
      expect(left).toContain('01614960321');
      expect(all).toContain(squeeze(COMPANY));
      if (kind === 'vat_invoice') expect(all).toContain(squeeze(CUSTOMER));
      for (const date of ['28November2026', '27November2026']) expect(all).toContain(date);
      // A wrapped description's second line follows its figures in reading order: read it without them.
      const wordsOnly = squeeze(
        words
          .filter((w) => !/^(£[\d,.]+|\d+%)$/.test(w.text))
          .map((w) => w.text)
          .join(''),
      );
      for (let i = 1; i <= 20; i += 1) expect(wordsOnly).toContain(squeeze(`Charge ${i}: specialist low-loader winching for a vehicle in a ditch, per hour`));
      expect(all).toContain(kind === 'credit_note' ? 'Totalcredited£240,001.90' : '£240,001.90');
      if (kind !== 'credit_note') {
        expect(all).toContain(squeeze('Paid: deposit by card, balance by bank transfer £48,000.38'));
        expect(all).toContain(squeeze('Balance due on account £192,001.52'));
      }
    },
  );
});
