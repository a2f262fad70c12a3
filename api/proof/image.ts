// What an uploaded file is, by its own bytes (never by its name or its Content-Type), and the copy
// of it the motorist is shown with the phone's metadata taken out: EXIF (where GPS position
// lives), XMP and text chunks. All of it works on the stream as it passes, a few bytes of header
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

/** A filter that hands on the bytes of `type` with their metadata taken out; undefined for HEIC, whose metadata cannot be taken out as it streams. */
export function metadataFilter(type: ImageType): Transform | undefined {
  if (type === 'image/jpeg') return new JpegMetadataFilter();
  if (type === 'image/png') return new PngMetadataFilter();
  if (type === 'image/webp') return new WebpMetadataFilter();
  return undefined;
}
