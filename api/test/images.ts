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

const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};
const fullBox = (type: string, version: number, ...parts: Buffer[]) => box(type, Buffer.from([version, 0, 0, 0]), ...parts);
const u16 = (n: number) => Buffer.from([n >> 8, n & 255]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n, 0);
  return b;
};

/** A TIFF (as an EXIF item carries it) with a GPS IFD: latitude 52.4862 N, longitude 1.8904 W, and GPS_MARK as its processing method. */
function exifTiff(): Buffer {
  // Big-endian TIFF: header, IFD0 with one entry (the GPS IFD's offset), then the GPS IFD.
  const rational = (n: number, d: number) => Buffer.concat([u32(n), u32(d)]);
  const entry = (tag: number, type: number, count: number, value: Buffer) => Buffer.concat([u16(tag), u16(type), u32(count), value]);
  const ifd0At = 8;
  const gpsAt = ifd0At + 2 + 12 + 4;
  const gpsEntries = 5;
  const dataAt = gpsAt + 2 + gpsEntries * 12 + 4;
  const latitude = Buffer.concat([rational(52, 1), rational(29, 1), rational(1032, 100)]);
  const longitude = Buffer.concat([rational(1, 1), rational(53, 1), rational(2544, 100)]);
  const method = Buffer.from(`ASCII\0\0\0${GPS_MARK}`, 'latin1');
  return Buffer.concat([
    Buffer.from('MM\0*', 'latin1'),
    u32(ifd0At),
    u16(1),
    entry(0x8825, 4, 1, u32(gpsAt)),
    u32(0),
    u16(gpsEntries),
    entry(0x0001, 2, 2, Buffer.from('N\0\0\0', 'latin1')),
    entry(0x0002, 5, 3, u32(dataAt)),
    entry(0x0003, 2, 2, Buffer.from('W\0\0\0', 'latin1')),
    entry(0x0004, 5, 3, u32(dataAt + 24)),
    entry(0x001b, 7, method.length, u32(dataAt + 48)),
    u32(0),
    latitude,
    longitude,
    method,
  ]);
}

/** The XMP packet a phone may write beside EXIF, with the position in it. */
const xmpPacket = () =>
  Buffer.from(
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="52,29.172N" exif:GPSLongitude="1,53.424W" exif:UserComment="${GPS_MARK}"/></rdf:RDF></x:xmpmeta>`,
  );

/**
 * A HEIC file's structure as an iPhone writes it (ISOBMFF: `ftyp`, then `meta` with `hdlr`
 * 'pict', `pitm`, `iinf` naming an `hvc1` image item, an `Exif` item and an XMP `mime` item, `iref`,
 * `iprp` with the image's `hvcC` and `ispe`, and `iloc` placing each item's bytes; then `mdat`).
 * The EXIF item is a real TIFF with a GPS IFD and the XMP names the position, both holding
 * GPS_MARK. `exifIn` puts the EXIF in `mdat` (the usual place) or in the meta box's own `idat`;
 * `mdatFirst` puts `mdat` before `meta`, as a few writers do. The HEVC image data is filler: no
 * decoder is involved.
 */
export function heicFile({
  exifIn = 'mdat',
  mdatFirst = false,
  imageBytes = 4000,
}: {
  exifIn?: 'mdat' | 'idat';
  mdatFirst?: boolean;
  imageBytes?: number;
} = {}): Buffer {
  const ftyp = box('ftyp', Buffer.from('heic', 'latin1'), u32(0), Buffer.from('mif1heicmiaf', 'latin1'));
  const image = Buffer.from(randomBytes(imageBytes));
  // The EXIF item: the offset to its TIFF header (after 'Exif\0\0'), then the EXIF block.
  const exif = Buffer.concat([u32(6), Buffer.from('Exif\0\0', 'latin1'), exifTiff()]);
  const xmp = xmpPacket();
  const infe = (id: number, type: string, extra = Buffer.alloc(0)) =>
    fullBox('infe', 2, u16(id), u16(0), Buffer.from(type, 'latin1'), Buffer.from('\0'), extra);
  const iinf = fullBox('iinf', 0, u16(3), infe(1, 'hvc1'), infe(2, 'Exif'), infe(3, 'mime', Buffer.from('application/rdf+xml\0', 'latin1')));
  const hvcC = box('hvcC', Buffer.from([1, 1, 0x60, 0, 0, 0, 0x90, 0, 0, 0, 0, 0, 0x5a, 0xf0, 0, 0xfc, 0xfd, 0xf8, 0xf8, 0, 0, 0x0f, 0]));
  const ispe = fullBox('ispe', 0, u32(640), u32(480));
  const iprp = box('iprp', box('ipco', hvcC, ispe), fullBox('ipma', 0, u32(1), u16(1), Buffer.from([2, 0x81, 0x02])));
  const iref = fullBox('iref', 0, box('cdsc', u16(2), u16(1), u16(1)), box('cdsc', u16(3), u16(1), u16(1)));
  const idat = exifIn === 'idat' ? box('idat', exif) : Buffer.alloc(0);
  // iloc version 1: 4-byte offsets and lengths, no base offset; construction method 0 (file) or 1 (idat).
  const iloc = (places: { id: number; method: number; offset: number; length: number }[]) =>
    fullBox(
      'iloc',
      1,
      Buffer.from([0x44, 0x00]),
      u16(places.length),
      ...places.map((p) => Buffer.concat([u16(p.id), u16(p.method), u16(0), u16(1), u32(p.offset), u32(p.length)])),
    );
  const metaOf = (places: Parameters<typeof iloc>[0]) =>
    fullBox(
      'meta',
      0,
      fullBox('hdlr', 0, u32(0), Buffer.from('pict', 'latin1'), Buffer.alloc(12), Buffer.from('\0')),
      fullBox('pitm', 0, u16(1)),
      iinf,
      iref,
      iprp,
      idat,
      iloc(places),
    );
  const inMdat = exifIn === 'mdat' ? [image, exif, xmp] : [image, xmp];
  const mdat = box('mdat', ...inMdat);
  // The places depend on where mdat lands, which depends on the meta box's size (the same whatever the offsets).
  const sizing = metaOf([
    { id: 1, method: 0, offset: 0, length: 0 },
    { id: 2, method: 0, offset: 0, length: 0 },
    { id: 3, method: 0, offset: 0, length: 0 },
  ]);
  const mdatData = mdatFirst ? ftyp.length + 8 : ftyp.length + sizing.length + 8;
  let at = mdatData;
  const placeOf = (id: number, bytes: Buffer) => {
    const place = { id, method: 0, offset: at, length: bytes.length };
    at += bytes.length;
    return place;
  };
  const places = [placeOf(1, image), ...(exifIn === 'mdat' ? [placeOf(2, exif)] : []), placeOf(3, xmp)];
  // In idat, the EXIF item is at the start of idat's data.
  if (exifIn === 'idat') places.push({ id: 2, method: 1, offset: 0, length: exif.length });
  const meta = metaOf(places.sort((a, b) => a.id - b.id));
  return Buffer.concat(mdatFirst ? [ftyp, mdat, meta] : [ftyp, meta, mdat]);
}
