// Logos arrive as data URLs and are stored as bytes: PNG, JPEG, GIF or WebP only (their magic
// bytes must agree with the declared type), at most 2 MB decoded; SVG is refused because it can
// carry script.
import { createHash } from 'node:crypto';
import { LOGO_MAX_BYTES } from '#shared/constants';
import { ValidationFailed } from '../platform/errors';
import type { LogoInput } from './store';

const SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.length > 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a,
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.length > 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a'),
  'image/webp': (b) => b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

const invalid = (message: string) => new ValidationFailed(message, { logo: message });

export function parseLogoDataUrl(dataUrl: string): LogoInput {
  const match = /^data:(image\/[a-z0-9.+-]+);base64,([A-Za-z0-9+/]+={0,2})$/i.exec(dataUrl.trim());
  if (!match) throw invalid('Logo must be a PNG, JPG, GIF or WebP image');
  const contentType = match[1].toLowerCase().replace('image/jpg', 'image/jpeg');
  const check = SIGNATURES[contentType];
  if (!check) throw invalid('Logo must be a PNG, JPG, GIF or WebP image');
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > LOGO_MAX_BYTES) throw invalid('Logo must be at most 2MB');
  if (!check(bytes)) throw invalid('Logo file is not a valid image');
  return { contentType, bytes, hash: createHash('sha256').update(bytes).digest('hex') };
}
