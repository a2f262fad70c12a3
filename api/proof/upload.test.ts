// The blob stores (disk, and S3 against a fake S3 server in process) and the streaming upload:
// what is stored is what was sent, the motorist's copy has no EXIF, and a refused or interrupted
// upload leaves nothing in either store.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayloadTooLarge } from '../platform/errors';
import { GPS_MARK, heicFile, jpegFile, pngFile, webpFile } from '../test/images';
import { startS3Fake, type S3Fake } from '../test/s3-fake';
import { type BlobStore, diskBlobStore, newBlobKey, s3BlobStore, s3Client } from './blob-store';
import { IMAGE_TYPES, metadataFilter, NoShownCopy, sniffImage } from './image';
import { NotAnImage, receiveImage } from './upload';

const MB = 1024 * 1024;
const limits = { maxBytes: 15 * MB, allowed: IMAGE_TYPES };

async function bytesOf(store: BlobStore, key: string): Promise<Buffer | undefined> {
  const blob = await store.get(key);
  if (!blob) return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `data` in chunks of `size`, as a request body arrives. */
const chunked = (data: Buffer, size = 64 * 1024) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < data.length; at += size) yield data.subarray(at, at + size);
    })(),
  );

/** `data` then an error part way, as a dropped connection. */
const interrupted = (data: Buffer) =>
  Readable.from(
    (async function* () {
      yield data.subarray(0, data.length / 2);
      await new Promise((resolve) => setTimeout(resolve, 5));
      throw new Error('aborted');
    })(),
  );

describe('image types by their bytes', () => {
  it('knows JPEG, PNG, WebP and HEIC, and nothing else', () => {
    expect(sniffImage(jpegFile())).toBe('image/jpeg');
    expect(sniffImage(pngFile())).toBe('image/png');
    expect(sniffImage(webpFile())).toBe('image/webp');
    expect(sniffImage(Buffer.from('\0\0\0\x18ftypheic\0\0\0\0', 'latin1'))).toBe('image/heic');
    expect(sniffImage(Buffer.from('%PDF-1.7 hello world'))).toBeUndefined();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeUndefined();
    expect(sniffImage(Buffer.from([0xff, 0xd8]))).toBeUndefined();
  });

  it.each([
    ['JPEG', jpegFile()],
    ['PNG', pngFile()],
    ['WebP', webpFile()],
    ['HEIC (EXIF in mdat)', heicFile()],
    ['HEIC (EXIF in the meta box’s idat)', heicFile({ exifIn: 'idat' })],
  ])('takes the EXIF position out of a %s, in chunks of any size', async (_name, file) => {
    for (const size of [1, 7, 4096]) {
      const filter = metadataFilter(sniffImage(file)!);
      const out: Buffer[] = [];
      filter.on('data', (c: Buffer) => out.push(c));
      const done = new Promise((resolve, reject) => filter.on('end', resolve).on('error', reject));
      chunked(file, size).pipe(filter);
      await done;
      const shown = Buffer.concat(out);
      expect(file.includes(GPS_MARK)).toBe(true);
      expect(shown.includes(GPS_MARK)).toBe(false);
      expect(sniffImage(shown)).toBe(sniffImage(file));
    }
  });

  it.each(['mdat', 'idat'] as const)('zeroes a HEIC’s EXIF (in %s) and XMP items in place, every other byte as it was', async (exifIn) => {
    const file = heicFile({ exifIn });
    const filter = metadataFilter('image/heic');
    const out: Buffer[] = [];
    filter.on('data', (c: Buffer) => out.push(c));
    const done = new Promise((resolve, reject) => filter.on('end', resolve).on('error', reject));
    chunked(file, 100).pipe(filter);
    await done;
    const shown = Buffer.concat(out);
    expect(shown.length).toBe(file.length);
    for (const mark of [GPS_MARK, 'GPSLatitude', 'MM\0*']) expect(shown.includes(Buffer.from(mark, 'latin1'))).toBe(false);
    // What changed is the EXIF item (its offset word, 'Exif\0\0' and the TIFF) and the XMP packet, now zeros.
    const exif = file.indexOf(Buffer.from('\0\0\0\x06Exif\0\0', 'latin1'));
    const xmp = file.indexOf('<x:xmpmeta');
    const changed = [...file.keys()].filter((i) => file[i] !== shown[i]);
    expect(changed.every((i) => shown[i] === 0)).toBe(true);
    expect(changed[0]).toBeGreaterThanOrEqual(Math.min(exif, xmp));
    expect(changed.filter((i) => i >= xmp).length).toBeGreaterThan(0);
    expect(changed.filter((i) => i >= exif && i < exif + 200).length).toBeGreaterThan(50);
    // The image data, the boxes and the item table pass untouched.
    const image = file.indexOf('mdat') + 4;
    expect(shown.subarray(image, image + 4000).equals(file.subarray(image, image + 4000))).toBe(true);
  });

  it('gives no motorist’s copy of a HEIC whose image data comes before its metadata', async () => {
    const filter = metadataFilter('image/heic');
    const failed = new Promise<Error>((resolve) => filter.on('error', resolve));
    filter.resume();
    Readable.from([heicFile({ mdatFirst: true })]).pipe(filter);
    expect((await failed).name).toBe('Error');
    expect(await failed).toBeInstanceOf(NoShownCopy);
  });

  it('keeps a JPEG’s image data byte for byte, only the EXIF segment gone', async () => {
    const withExif = jpegFile();
    const exifLength = 4 + 6 + Buffer.byteLength(GPS_MARK);
    const filter = metadataFilter('image/jpeg');
    const out: Buffer[] = [];
    filter.on('data', (c: Buffer) => out.push(c));
    const done = new Promise((resolve) => filter.on('end', resolve));
    Readable.from([withExif]).pipe(filter);
    await done;
    expect(Buffer.concat(out).length).toBe(withExif.length - exifLength);
  });
});

describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  let s3: S3Fake | undefined;
  let store: BlobStore;
  const root = mkdtempSync(path.join(tmpdir(), 'proof-blobs-'));
  const leftovers = () =>
    kind === 'disk'
      ? readdirSync(root, { recursive: true, withFileTypes: true })
          .filter((e) => e.isFile())
          .map((e) => e.name)
      : [...s3!.objects.keys()];

  beforeAll(async () => {
    if (kind === 's3') {
      s3 = await startS3Fake();
      const env = s3.env();
      store = s3BlobStore({
        bucket: env.S3_BUCKET,
        endpoint: env.S3_ENDPOINT,
        region: env.S3_REGION,
        forcePathStyle: true,
        credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
      });
    } else store = diskBlobStore(root);
  });
  afterAll(async () => s3?.close());

  it('stores the file as sent and a copy without EXIF; SHA-256 and size are the sent file’s', async () => {
    const file = jpegFile({ scanBytes: 300_000 });
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    const got = await receiveImage(chunked(file), store, keys, limits);
    expect(got).toEqual({ type: 'image/jpeg', size: file.length, sha256: createHash('sha256').update(file).digest('hex'), shown: true });
    expect((await bytesOf(store, keys.original))?.equals(file)).toBe(true);
    const shown = await bytesOf(store, keys.shown);
    expect(shown?.includes(GPS_MARK)).toBe(false);
    expect(shown?.length).toBeLessThan(file.length);
    await store.delete(keys.original);
    await store.delete(keys.shown);
    expect(await store.get(keys.original)).toBeUndefined();
  });

  it('stores a HEIC as sent and its copy with the EXIF and XMP zeroed; one it cannot read so as sent only, leaving no copy behind', async () => {
    const file = heicFile({ imageBytes: 200_000 });
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    expect(await receiveImage(chunked(file), store, keys, limits)).toMatchObject({ type: 'image/heic', size: file.length, shown: true });
    expect((await bytesOf(store, keys.original))?.equals(file)).toBe(true);
    const shown = await bytesOf(store, keys.shown);
    expect(shown?.length).toBe(file.length);
    expect(shown?.includes(GPS_MARK)).toBe(false);

    const unreadable = heicFile({ mdatFirst: true, imageBytes: 200_000 });
    const other = { original: newBlobKey(), shown: newBlobKey() };
    expect(await receiveImage(chunked(unreadable), store, other, limits)).toMatchObject({ type: 'image/heic', size: unreadable.length, shown: false });
    expect((await bytesOf(store, other.original))?.equals(unreadable)).toBe(true);
    expect(await store.get(other.shown)).toBeUndefined();
    await Promise.all([keys.original, keys.shown, other.original].map((key) => store.delete(key)));
    expect(leftovers()).toEqual([]);
  });

  it('stores a file over one 5 MB part (S3: as a multipart upload)', async () => {
    const file = jpegFile({ scanBytes: 11 * MB });
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    await receiveImage(chunked(file), store, keys, limits);
    expect((await bytesOf(store, keys.original))?.equals(file)).toBe(true);
    if (s3) {
      expect(s3.multipart.completed).toBeGreaterThanOrEqual(2);
      expect(s3.openUploads).toBe(0);
    }
    await Promise.all([store.delete(keys.original), store.delete(keys.shown)]);
    expect(leftovers()).toEqual([]);
  });

  it('refuses what is not an image, and stores nothing', async () => {
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    await expect(receiveImage(chunked(Buffer.from('%PDF-1.7\n'.repeat(1000))), store, keys, limits)).rejects.toBeInstanceOf(NotAnImage);
    await expect(receiveImage(chunked(Buffer.from('tiny')), store, keys, limits)).rejects.toBeInstanceOf(NotAnImage);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a file over the cap part way, and keeps nothing of it', async () => {
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    const file = jpegFile({ scanBytes: 7 * MB });
    await expect(receiveImage(chunked(file), store, keys, { ...limits, maxBytes: 6 * MB })).rejects.toBeInstanceOf(PayloadTooLarge);
    expect(await store.get(keys.original)).toBeUndefined();
    expect(leftovers()).toEqual([]);
    if (s3) expect(s3.openUploads).toBe(0);
  });

  it('keeps nothing of an upload interrupted half way', async () => {
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    await expect(receiveImage(interrupted(jpegFile({ scanBytes: 200_000 })), store, keys, limits)).rejects.toThrow();
    expect(leftovers()).toEqual([]);
  });

  it('refuses a JPEG whose structure is broken, and keeps nothing', async () => {
    const keys = { original: newBlobKey(), shown: newBlobKey() };
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0'), Buffer.alloc(9), Buffer.from('not a marker')]);
    await expect(receiveImage(chunked(broken, 3), store, keys, limits)).rejects.toBeInstanceOf(NotAnImage);
    expect(leftovers()).toEqual([]);
  });
});

describe('the S3 client', () => {
  it('follows no redirect: a 3xx from the endpoint is an error, not a second signed request elsewhere', async () => {
    const { createServer } = await import('node:http');
    let elsewhere = 0;
    const other = createServer((_req, res) => {
      elsewhere += 1;
      res.end();
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherPort = (other.address() as { port: number }).port;
    const redirector = createServer((_req, res) => {
      res.writeHead(307, { location: `http://127.0.0.1:${otherPort}/stolen` });
      res.end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    const settings = {
      bucket: 'b',
      endpoint: `http://127.0.0.1:${(redirector.address() as { port: number }).port}`,
      region: 'eu-west-2',
      forcePathStyle: true,
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'secret' },
    };
    const store = s3BlobStore(settings, await s3Client({ ...settings }));
    await expect(store.delete(newBlobKey())).rejects.toThrow();
    expect(elsewhere).toBe(0);
    await new Promise((resolve) => redirector.close(resolve));
    await new Promise((resolve) => other.close(resolve));
  });
});
