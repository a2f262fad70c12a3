// One upload from the request's stream to the blob store (docs/product.md, "Proof of condition"):
// its first bytes say what it is (JPEG, PNG, WebP or HEIC, or it is refused), it is counted
// against its cap and hashed (SHA-256) as it passes, and it is written at once as two copies: the
// file as sent (the operator's evidence) and the copy the motorist is shown, its metadata taken
// out (api/proof/image.ts). Nothing is held whole in memory. If anything fails part way (too
// large, not an image, the client gone, the store refusing), whatever was stored is deleted, so
// an upload is either all there or not there at all.
import { createHash } from 'node:crypto';
import { PassThrough, type Readable, Transform, type TransformCallback } from 'node:stream';
import { PayloadTooLarge } from '../platform/errors';
import type { BlobStore } from './blob-store';
import { metadataFilter, NoShownCopy, SNIFF_BYTES, sniffImage, type ImageType } from './image';

/**
 * Each stage of an upload buffers up to this much before it holds the socket back: with Node's
 * 16 KB default, 20 uploads at once spent their time pausing and resuming their sockets.
 */
const STREAM_BUFFER = 256 * 1024;

/** The file is not one of the image types we take, or its structure cannot be read. */
export class NotAnImage extends Error {}

/** Counts, hashes and identifies the bytes passing; holds back only the first few until it knows their type. */
class Inspector extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  type: ImageType | undefined;
  private head: Buffer[] = [];
  private headSize = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly allowed: readonly ImageType[],
  ) {
    super({ highWaterMark: STREAM_BUFFER });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) return callback(new PayloadTooLarge(PHOTO_TOO_LARGE));
    this.hash.update(chunk);
    if (this.type) return callback(null, chunk);
    this.head.push(chunk);
    this.headSize += chunk.length;
    if (this.headSize < SNIFF_BYTES) return callback();
    const head = Buffer.concat(this.head);
    this.head = [];
    const type = sniffImage(head);
    if (!type || !this.allowed.includes(type)) return callback(new NotAnImage(NOT_AN_IMAGE));
    this.type = type;
    this.emit('identified', type);
    callback(null, head);
  }

  override _flush(callback: TransformCallback) {
    callback(this.type ? null : new NotAnImage(NOT_AN_IMAGE));
  }
}

export const NOT_AN_IMAGE = 'This file is not a photo. Send a JPEG, PNG, WebP or HEIC image.';
export const PHOTO_TOO_LARGE = 'This photo is over 15 MB. Send a smaller one.';

export interface Received {
  type: ImageType;
  size: number;
  sha256: string;
  /** Whether the shown copy was stored (none for a HEIC whose metadata could not be found before its image data). */
  shown: boolean;
}

export interface UploadTargets {
  /** The file as sent; absent to keep only the shown copy (a thumbnail). */
  original?: string;
  /** The copy with its metadata taken out. */
  shown: string;
}

/**
 * Streams `source` into `store` under the targets' keys. Resolves once every copy is stored;
 * rejects with PayloadTooLarge or NotAnImage (or the source's or the store's own error) having
 * deleted whatever was stored.
 */
export async function receiveImage(
  source: Readable,
  store: BlobStore,
  targets: UploadTargets,
  limits: { maxBytes: number; allowed: readonly ImageType[] },
): Promise<Received> {
  const inspector = new Inspector(limits.maxBytes, limits.allowed);
  const stored: string[] = [];
  const puts: Promise<void>[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    source.unpipe(inspector);
    source.resume();
    inspector.destroy(error);
  };
  source.on('error', fail);
  // A client that goes away without an error still ends the upload.
  source.once('close', () => {
    if (!source.readableEnded) fail(new Error('aborted'));
  });
  const identified = new Promise<ImageType | undefined>((resolve) => {
    inspector.once('identified', resolve);
    inspector.on('error', (error) => {
      fail(error);
      resolve(undefined);
    });
    inspector.once('end', () => resolve(inspector.type));
  });
  source.pipe(inspector);
  const type = await identified;
  if (type) {
    const start = (key: string, stream: Readable) => {
      // The store may take its time to start reading (a folder to make): an error before then is
      // still its to see (the stream is destroyed), not an uncaught one.
      stream.on('error', () => {});
      puts.push(
        store.put(key, stream, type).then(() => {
          stored.push(key);
        }),
      );
    };
    if (targets.original) {
      const original = new PassThrough({ highWaterMark: STREAM_BUFFER });
      inspector.on('error', (error) => original.destroy(error));
      inspector.pipe(original);
      start(targets.original, original);
    }
    const filter = metadataFilter(type);
    inspector.on('error', (error) => filter.destroy(error));
    filter.on('error', (error) => {
      // A HEIC the filter cannot read as it streams keeps its file as sent, with no motorist's copy; a thumbnail must have one.
      if (error instanceof NoShownCopy && targets.original) return;
      fail(error instanceof PayloadTooLarge ? error : new NotAnImage(error.message));
    });
    inspector.pipe(filter);
    start(targets.shown, filter);
  }
  const results = await Promise.allSettled(puts);
  const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof NoShownCopy && targets.original));
  if (failure || refused || !type) {
    await Promise.all(stored.map((key) => store.delete(key).catch(() => {})));
    throw failure ?? (refused?.reason as Error) ?? new NotAnImage(NOT_AN_IMAGE);
  }
  return { type, size: inspector.size, sha256: inspector.hash.digest('hex'), shown: stored.includes(targets.shown) };
}
