// What an uploaded file is, by its own bytes (never by its name or its Content-Type), and the copy
// of it the motorist is shown with the phone's metadata taken out: EXIF (where GPS position
// lives), XMP and text chunks, of JPEG, PNG, WebP and HEIC. All of it works on the stream as it passes, a few bytes of header
// at a time, so no file is ever held whole (docs/budgets.md).
import { Transform, type TransformCallback } from 'node:stream';
import type { ImageType } from '#shared/proof';

export { IMAGE_TYPES, type ImageType } from '#shared/proof';

/** Bytes needed to tell the four types apart. */
export const SNIFF_BYTES = 12;

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** The image type of a file from its first SNIFF_BYTES bytes, or undefined when it is none of ours. */
export function sniffImage(head: Uint8Array): ImageType | undefined {
  if (head.length < SNIFF_BYTES) return undefined;
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  if (b.toString('latin1', 4, 8) === 'ftyp' && HEIC_BRANDS.has(b.toString('latin1', 8, 12))) return 'image/heic';
  return undefined;
}

/** The file's structure is not what its first bytes promised: no copy is shown of it. */
export class UnreadableImage extends Error {}

/**
 * A parser of a file made of headed blocks: `decide` looks at the bytes waiting (at least the
 * block's header) and says how many bytes to pass, drop or zero, or that it needs more, or that
 * everything from here on passes as it is.
 */
type Decision = { need: number } | { pass: number } | { drop: number } | { keep: number; zero: number } | 'rest';

abstract class BlockFilter extends Transform {
  private waiting = Buffer.alloc(0);
  private mode: 'decide' | 'pass' | 'drop' | 'zero' | 'rest' = 'decide';
  private left = 0;
  /** Bytes to zero once the bytes passing now have passed. */
  private zeroNext = 0;

  protected abstract decide(waiting: Buffer): Decision;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    try {
      this.consume(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback) {
    // A file that ends inside a header it promised is cut short: nothing of it is kept.
    if (this.mode === 'decide' && this.waiting.length > 0 && !this.endsWell(this.waiting)) return callback(new UnreadableImage('The image ends part way'));
    if (this.waiting.length > 0) this.push(this.waiting);
    callback();
  }

  /** Whether bytes left undecided at the end are a proper ending (a JPEG's EOI). */
  protected endsWell(_waiting: Buffer): boolean {
    return false;
  }

  private consume(chunk: Buffer) {
    let data = this.waiting.length > 0 ? Buffer.concat([this.waiting, chunk]) : chunk;
    this.waiting = Buffer.alloc(0);
    while (data.length > 0) {
      if (this.mode === 'rest') {
        this.push(data);
        return;
      }
      if (this.mode === 'pass' || this.mode === 'drop' || this.mode === 'zero') {
        const take = Math.min(this.left, data.length);
        if (this.mode === 'pass') this.push(data.subarray(0, take));
        else if (this.mode === 'zero') this.push(Buffer.alloc(take));
        data = data.subarray(take);
        this.left -= take;
        if (this.left === 0) {
          [this.mode, this.left, this.zeroNext] = this.zeroNext > 0 ? ['zero', this.zeroNext, 0] : ['decide', 0, 0];
        }
        continue;
      }
      const decision = this.decide(data);
      if (decision === 'rest') {
        this.mode = 'rest';
        continue;
      }
      if ('need' in decision) {
        if (data.length >= decision.need) throw new UnreadableImage('The image’s structure could not be read');
        this.waiting = Buffer.from(data);
        return;
      }
      if ('pass' in decision) [this.mode, this.left] = ['pass', decision.pass];
      else if ('drop' in decision) [this.mode, this.left] = ['drop', decision.drop];
      else [this.mode, this.left, this.zeroNext] = ['pass', decision.keep, decision.zero];
      if (this.left === 0) [this.mode, this.left, this.zeroNext] = this.zeroNext > 0 ? ['zero', this.zeroNext, 0] : ['decide', 0, 0];
    }
  }
}

/** JPEG: every APP1 (EXIF and XMP) and APP13 (Photoshop's IPTC, which can name a place) segment is dropped; the image data passes untouched. */
class JpegMetadataFilter extends BlockFilter {
  private started = false;

  protected decide(b: Buffer): Decision {
    if (!this.started) {
      if (b.length < 2) return { need: 2 };
      if (b[0] !== 0xff || b[1] !== 0xd8) throw new UnreadableImage('Not a JPEG');
      this.started = true;
      return { pass: 2 };
    }
    if (b.length < 2) return { need: 2 };
    if (b[0] !== 0xff) throw new UnreadableImage('A JPEG segment does not start with a marker');
    const marker = b[1];
    // Fill bytes before a marker.
    if (marker === 0xff) return { pass: 1 };
    // Markers without a length: the restart markers, TEM, and EOI.
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) return { pass: 2 };
    if (marker === 0xd9) return 'rest';
    if (b.length < 4) return { need: 4 };
    const length = b.readUInt16BE(2);
    if (length < 2) throw new UnreadableImage('A JPEG segment’s length is wrong');
    // Start of scan: the compressed image follows, and with it no more metadata segments worth reading.
    if (marker === 0xda) return 'rest';
    if (marker === 0xe1 || marker === 0xed) return { drop: 2 + length };
    return { pass: 2 + length };
  }

  protected override endsWell(waiting: Buffer) {
    return waiting.length <= 2 && waiting[0] === 0xff;
  }
}

const PNG_DROPPED = new Set(['eXIf', 'tEXt', 'zTXt', 'iTXt']);

/** PNG: the eXIf chunk and the text chunks (where XMP is kept) are dropped; the rest passes. */
class PngMetadataFilter extends BlockFilter {
  private started = false;

  protected decide(b: Buffer): Decision {
    if (!this.started) {
      if (b.length < 8) return { need: 8 };
      this.started = true;
      return { pass: 8 };
    }
    if (b.length < 8) return { need: 8 };
    const length = b.readUInt32BE(0);
    const type = b.toString('latin1', 4, 8);
    const whole = 12 + length;
    if (type === 'IEND') return 'rest';
    return PNG_DROPPED.has(type) ? { drop: whole } : { pass: whole };
  }
}

const WEBP_ZEROED = new Set(['EXIF', 'XMP ']);

/**
 * WebP: the RIFF header holds the file's length, which is sent before the chunks are seen, so the
 * EXIF and XMP chunks are kept in place with their contents zeroed rather than taken out.
 */
class WebpMetadataFilter extends BlockFilter {
  private started = false;

  protected decide(b: Buffer): Decision {
    if (!this.started) {
      if (b.length < 12) return { need: 12 };
      this.started = true;
      return { pass: 12 };
    }
    if (b.length < 8) return { need: 8 };
    const type = b.toString('latin1', 0, 4);
    const size = b.readUInt32LE(4);
    const padded = size + (size % 2);
    if (WEBP_ZEROED.has(type)) return { keep: 8, zero: padded };
    return { pass: 8 + padded };
  }
}

/**
 * The motorist's copy cannot be made of this file as it streams (a HEIC whose metadata's places are
 * not known before its data passes): the operator keeps the file, and the motorist is shown none.
 */
export class NoShownCopy extends Error {}

/** The largest HEIC `meta` box held to be read (an iPhone's is a few KB; its Exif is usually in `mdat`). */
const HEIC_META_MAX = 1024 * 1024;

/** Reads an ISOBMFF box header at `at` in `b`: its type, header length and whole length (Infinity: to the end of the file). */
function boxAt(b: Buffer, at: number): { type: string; header: number; size: number } | undefined {
  if (b.length < at + 8) return undefined;
  const size32 = b.readUInt32BE(at);
  const type = b.toString('latin1', at + 4, at + 8);
  if (size32 === 1) {
    if (b.length < at + 16) return undefined;
    return { type, header: 16, size: Number(b.readBigUInt64BE(at + 8)) };
  }
  return { type, header: 8, size: size32 === 0 ? Number.POSITIVE_INFINITY : size32 };
}

/** The child boxes of the box body `b[from, to)`. */
function* childBoxes(b: Buffer, from: number, to: number): Generator<{ type: string; start: number; body: number; end: number }> {
  let at = from;
  while (at + 8 <= to) {
    const box = boxAt(b, at);
    if (!box) return;
    const end = box.size === Number.POSITIVE_INFINITY ? to : at + box.size;
    if (box.size < box.header || end > to) throw new NoShownCopy('A HEIC box runs past its parent');
    yield { type: box.type, start: at, body: at + box.header, end };
    at = end;
  }
}

const readSized = (b: Buffer, at: number, size: number): number =>
  size === 0 ? 0 : size === 4 ? b.readUInt32BE(at) : size === 8 ? Number(b.readBigUInt64BE(at)) : Number.NaN;

const cString = (b: Buffer, at: number, end: number): { text: string; next: number } => {
  const zero = b.indexOf(0, at);
  const stop = zero === -1 || zero >= end ? end : zero;
  return { text: b.toString('latin1', at, stop), next: stop + 1 };
};

/**
 * The byte ranges of a HEIC's EXIF and XMP items, from its `meta` box (`meta` holds the whole
 * box, which starts at `metaStart` in the file): absolute file offsets, or offsets into `meta`
 * for data kept in its own `idat`.
 */
function heicMetadataRanges(meta: Buffer, metaStart: number): { start: number; end: number }[] {
  const header = boxAt(meta, 0);
  if (!header) throw new NoShownCopy('The HEIC meta box is cut short');
  // meta is a full box: version and flags before its children.
  const children = [...childBoxes(meta, header.header + 4, meta.length)];
  const hidden = new Set<number>();
  const iinf = children.find((c) => c.type === 'iinf');
  if (iinf) {
    const version = meta[iinf.body];
    const first = iinf.body + 4 + (version === 0 ? 2 : 4);
    for (const infe of childBoxes(meta, first, iinf.end)) {
      if (infe.type !== 'infe') continue;
      const v = meta[infe.body];
      let at = infe.body + 4;
      if (v >= 2) {
        const id = v === 2 ? meta.readUInt16BE(at) : meta.readUInt32BE(at);
        at += (v === 2 ? 2 : 4) + 2;
        const itemType = meta.toString('latin1', at, at + 4);
        at += 4;
        const name = cString(meta, at, infe.end);
        const contentType = itemType === 'mime' ? cString(meta, name.next, infe.end).text : '';
        if (itemType === 'Exif' || (itemType === 'mime' && contentType.startsWith('application/rdf+xml'))) hidden.add(id);
      } else {
        const id = meta.readUInt16BE(at);
        const name = cString(meta, at + 4, infe.end);
        if (cString(meta, name.next, infe.end).text.startsWith('application/rdf+xml')) hidden.add(id);
      }
    }
  }
  if (hidden.size === 0) return [];
  const iloc = children.find((c) => c.type === 'iloc');
  if (!iloc) throw new NoShownCopy('A HEIC metadata item has no location');
  const idat = children.find((c) => c.type === 'idat');
  const version = meta[iloc.body];
  let at = iloc.body + 4;
  const offsetSize = meta[at] >> 4;
  const lengthSize = meta[at] & 15;
  const baseSize = meta[at + 1] >> 4;
  const indexSize = version >= 1 ? meta[at + 1] & 15 : 0;
  at += 2;
  const count = version < 2 ? meta.readUInt16BE(at) : meta.readUInt32BE(at);
  at += version < 2 ? 2 : 4;
  const ranges: { start: number; end: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = version < 2 ? meta.readUInt16BE(at) : meta.readUInt32BE(at);
    at += version < 2 ? 2 : 4;
    const method = version >= 1 ? meta.readUInt16BE(at) & 15 : 0;
    if (version >= 1) at += 2;
    const dataReference = meta.readUInt16BE(at);
    at += 2;
    const base = readSized(meta, at, baseSize);
    at += baseSize;
    const extents = meta.readUInt16BE(at);
    at += 2;
    for (let e = 0; e < extents; e += 1) {
      at += indexSize;
      const offset = readSized(meta, at, offsetSize);
      at += offsetSize;
      const length = readSized(meta, at, lengthSize);
      at += lengthSize;
      if (!hidden.has(id) || dataReference !== 0) continue;
      if (Number.isNaN(offset) || Number.isNaN(length) || Number.isNaN(base)) throw new NoShownCopy('A HEIC item location is not readable');
      if (method === 0) ranges.push({ start: base + offset, end: length === 0 ? Number.POSITIVE_INFINITY : base + offset + length });
      else if (method === 1 && idat) {
        const start = metaStart + idat.body + base + offset;
        ranges.push({ start, end: length === 0 ? metaStart + idat.end : start + length });
      } else throw new NoShownCopy('A HEIC metadata item is built from other items');
    }
    if (at > iloc.end) throw new NoShownCopy('The HEIC item locations run past their box');
  }
  return ranges;
}

/**
 * HEIC (ISOBMFF): the EXIF item (where a phone writes its position) and any XMP item are found
 * through the `meta` box (`iinf` names them, `iloc` says where their bytes are) and their bytes
 * are zeroed in place as they pass, like a WebP's: every offset in the file stays true, so the
 * image data passes untouched. The `meta` box, a few KB, is the only part held; a file whose
 * image data comes before its `meta` cannot be read this way and gets no motorist's copy
 * (NoShownCopy).
 */
class HeicMetadataFilter extends Transform {
  /** The file offset of the next byte to arrive. */
  private offset = 0;
  /** Bytes held: a top-level box header being read, or the whole `meta` box. */
  private held: Buffer[] = [];
  private heldSize = 0;
  /** The file offset where the box being passed ends. */
  private passEnd = 0;
  private mode: 'header' | 'pass' | 'meta' = 'header';
  private metaSize = 0;
  private metaSeen = false;
  private zeroed: { start: number; end: number }[] = [];

  /**
   * Why no copy can be made, once known. The rest of the file is taken in and dropped, and the
   * error is told only at its end: an error part way would leave the upload's source paused for
   * a drain that never comes (a stream piped to two places waits for both).
   */
  private unreadable: NoShownCopy | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (!this.unreadable) {
      try {
        this.consume(chunk);
      } catch (error) {
        this.unreadable = error instanceof NoShownCopy ? error : new NoShownCopy((error as Error).message);
        this.held = [];
        this.zeroed = [];
      }
    }
    callback();
  }

  override _flush(callback: TransformCallback) {
    if (this.unreadable) return callback(this.unreadable);
    if (!this.metaSeen) return callback(new NoShownCopy('The HEIC has no metadata box before its end'));
    // Bytes left over past the last whole box are passed as they are (zeroed where they must be).
    if (this.heldSize > 0) {
      if (this.mode === 'meta') return callback(new NoShownCopy('The HEIC ends inside its metadata box'));
      this.passOn(Buffer.concat(this.held), this.offset - this.heldSize);
    }
    callback();
  }

  private consume(chunk: Buffer) {
    let data = chunk;
    while (data.length > 0) {
      if (this.mode === 'pass') {
        const take = Math.min(data.length, this.passEnd - this.offset);
        this.passOn(data.subarray(0, take), this.offset);
        this.offset += take;
        data = data.subarray(take);
        if (this.offset >= this.passEnd) this.mode = 'header';
        continue;
      }
      if (this.mode === 'meta') {
        const take = Math.min(data.length, this.metaSize - this.heldSize);
        this.hold(data.subarray(0, take));
        data = data.subarray(take);
        if (this.heldSize === this.metaSize) this.readMeta();
        continue;
      }
      // A top-level box's header: up to 16 bytes.
      const take = Math.min(data.length, 16 - this.heldSize);
      const head = Buffer.concat([...this.held, data.subarray(0, take)]);
      const box = boxAt(head, 0);
      if (!box) {
        this.hold(data.subarray(0, take));
        data = data.subarray(take);
        continue;
      }
      if (box.size < box.header) throw new NoShownCopy('A HEIC box’s length is wrong');
      const start = this.offset - this.heldSize;
      if (box.type === 'meta' && !this.metaSeen) {
        if (box.size > HEIC_META_MAX) throw new NoShownCopy('The HEIC metadata box is too large to read');
        this.metaSize = box.size;
        this.mode = 'meta';
        continue;
      }
      // Item data before the metadata that says where the EXIF is: it cannot be judged as it passes.
      if (!this.metaSeen && box.type !== 'ftyp' && box.type !== 'free' && box.type !== 'skip')
        throw new NoShownCopy('The HEIC image data comes before its metadata');
      // The header held so far passes as the start of the box; the rest follows as it comes.
      const held = Buffer.concat(this.held);
      this.held = [];
      this.heldSize = 0;
      this.passEnd = start + box.size;
      this.mode = 'pass';
      if (held.length > 0) this.passOn(held, start);
    }
  }

  private hold(bytes: Buffer) {
    this.held.push(Buffer.from(bytes));
    this.heldSize += bytes.length;
    this.offset += bytes.length;
  }

  /** The whole `meta` box is held: find the metadata's ranges, zero those inside it, pass it on. */
  private readMeta() {
    const meta = Buffer.concat(this.held);
    const start = this.offset - meta.length;
    this.held = [];
    this.heldSize = 0;
    this.metaSeen = true;
    const end = start + meta.length;
    for (const range of heicMetadataRanges(meta, start)) {
      if (range.start < start) throw new NoShownCopy('The HEIC metadata lies before its metadata box');
      if (range.start < end) meta.fill(0, range.start - start, Math.min(range.end, end) - start);
      if (range.end > end) this.zeroed.push({ start: Math.max(range.start, end), end: range.end });
    }
    this.push(meta);
    this.mode = 'header';
  }

  /** Pushes `bytes` (at file offset `at`), zeroing what falls in a metadata range. */
  private passOn(bytes: Buffer, at: number) {
    const end = at + bytes.length;
    const hits = this.zeroed.filter((r) => r.start < end && r.end > at);
    if (hits.length === 0) return void this.push(bytes);
    const copy = Buffer.from(bytes);
    for (const r of hits) copy.fill(0, Math.max(r.start, at) - at, Math.min(r.end, end) - at);
    this.push(copy);
  }
}

/** A filter that hands on the bytes of `type` with their metadata taken out. */
export function metadataFilter(type: ImageType): Transform {
  if (type === 'image/jpeg') return new JpegMetadataFilter();
  if (type === 'image/png') return new PngMetadataFilter();
  if (type === 'image/webp') return new WebpMetadataFilter();
  return new HeicMetadataFilter();
}
