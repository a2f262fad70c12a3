// Image files for the proof-of-condition tests, made here rather than kept as binaries: a JPEG
// with an EXIF segment holding a GPS position (its structure is real, SOF0 included, so pdf-lib
// embeds it; its scan data is filler), a real PNG (pngjs) with an eXIf chunk, and a WebP shell.
import { randomBytes } from 'node:crypto';
import { PNG } from 'pngjs';

/** The text the EXIF segments carry, so a test can look for it in a stored copy. */
export const GPS_MARK = 'GPSLatitude=52.4862;GPSLongitude=-1.8904';

const segment = (marker: number, payload: Buffer) => {
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = marker;
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

/** A baseline JPEG's structure, `scanBytes` of filler as its scan; with an EXIF (APP1) segment unless `exif` is false. */
export function jpegFile({ exif = true, width = 640, height = 480, scanBytes = 2000 } = {}): Buffer {
  const sof = Buffer.alloc(15);
  sof[0] = 8;
  sof.writeUInt16BE(height, 1);
  sof.writeUInt16BE(width, 3);
  sof[5] = 3;
  for (let i = 0; i < 3; i += 1) sof.set([i + 1, i === 0 ? 0x22 : 0x11, i === 0 ? 0 : 1], 6 + i * 3);
  // Filler without 0xFF, so no marker appears inside the scan.
  const scan = Buffer.from(randomBytes(scanBytes).map((b) => (b === 0xff ? 0x7f : b)));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1')),
    ...(exif ? [segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), Buffer.from(GPS_MARK)]))] : []),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xc0, sof),
    segment(0xc4, Buffer.alloc(30, 0)),
    segment(0xda, Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (data: Buffer) => {
  let c = 0xffffffff;
  for (const byte of data) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

/** A real w×h PNG, with an eXIf chunk holding GPS_MARK before its image data unless `exif` is false. */
export function pngFile({ exif = true, width = 8, height = 8 } = {}): Buffer {
  const png = new PNG({ width, height });
  png.data.fill(200);
  const plain = PNG.sync.write(png);
  if (!exif) return plain;
  const data = Buffer.from(GPS_MARK);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write('eXIf', 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  // After the IHDR chunk (8 + 25 bytes).
  return Buffer.concat([plain.subarray(0, 33), chunk, plain.subarray(33)]);
}

/** A WebP's RIFF structure with an EXIF chunk holding GPS_MARK (odd length, so padded). */
export function webpFile(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32LE(data.length, 4);
    return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const body = Buffer.concat([chunk('VP8X', Buffer.alloc(10)), chunk('VP8 ', Buffer.alloc(40, 3)), chunk('EXIF', Buffer.from(`${GPS_MARK}!`))]);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}
