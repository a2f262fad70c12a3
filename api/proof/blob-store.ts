// Where the bytes of photos and signatures live (docs/product.md, "Proof of condition"), behind
// one interface: the local disk by default (UPLOADS_PATH, beside the database), or S3-compatible
// object storage when S3_BUCKET is set, through the AWS SDK (imported on the S3 store's first
// call, so a server on the disk store never loads it: about a fifth of a start's CPU). The
// database keeps only each file's key, size, SHA-256 and type (api/proof/store.ts). Both stores
// take a stream and never hold a whole file: a put that fails or is aborted part way leaves
// nothing under its key.
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config } from '../platform/config';

export interface StoredBlob {
  body: Readable;
  size: number;
}

export interface BlobStore {
  readonly kind: 'disk' | 's3';
  /** Stores `body` under `key`; resolves once all of it is stored. On failure nothing is left under `key`. */
  put(key: string, body: Readable, contentType: string): Promise<void>;
  /** The blob, or undefined when there is none under `key`. */
  get(key: string): Promise<StoredBlob | undefined>;
  /** Deletes the blob; a key with nothing under it is not an error. */
  delete(key: string): Promise<void>;
}

/** A fresh key: 128 random bits, so no key is ever guessed or reused. */
export const newBlobKey = () => randomBytes(16).toString('base64url');

const KEY = /^[A-Za-z0-9_-]{16,64}$/;
function checkedKey(key: string): string {
  // Keys are ours (newBlobKey), never a client's: anything else is a bug, not a path to follow.
  if (!KEY.test(key)) throw new Error('Not a blob key');
  return key;
}

/**
 * Files under `root`, spread over 4,096 folders by the key's first two characters. A put writes a
 * partial file in `root/.partial` and renames it into place only when the stream has ended, so an
 * interrupted upload leaves no file under its key (and a crash leaves only a partial file, which
 * the next start clears).
 */
export function diskBlobStore(root: string): BlobStore {
  const partial = path.join(root, '.partial');
  const fileOf = (key: string) => path.join(root, checkedKey(key).slice(0, 2), key);
  let ready: Promise<void> | undefined;
  const prepare = () =>
    (ready ??= (async () => {
      await rm(partial, { recursive: true, force: true });
      await mkdir(partial, { recursive: true });
    })());
  return {
    kind: 'disk',
    async put(key, body) {
      const target = fileOf(key);
      await prepare();
      const temporary = path.join(partial, `${key}.${randomBytes(6).toString('hex')}`);
      try {
        await pipeline(body, createWriteStream(temporary, { flags: 'wx', mode: 0o600, highWaterMark: 256 * 1024 }));
        await mkdir(path.dirname(target), { recursive: true });
        await rename(temporary, target);
      } catch (error) {
        body.destroy();
        await unlink(temporary).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      const file = fileOf(key);
      try {
        const { size } = await stat(file);
        return { body: createReadStream(file), size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    async delete(key) {
      await unlink(fileOf(key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    },
  };
}

type S3Settings = NonNullable<Config['uploads']['s3']>;

/**
 * An S3 bucket (AWS, or any S3-compatible store at S3_ENDPOINT). Uploads go through lib-storage's
 * Upload, which sends a small body as one PutObject and a large one as a multipart upload, holding
 * at most one 5 MB part in memory per upload; a failed or aborted upload is aborted on the store
 * (leavePartsOnError false), so no object appears. The SDK's HTTP handler follows no redirects: a
 * 3xx is an error, so the signed request and its credentials go only to the configured endpoint.
 */
export function s3BlobStore(settings: S3Settings, given?: S3Client): BlobStore {
  const Bucket = settings.bucket;
  let made: S3Client | undefined;
  const ready = async () => {
    const sdk = await awsSdk();
    return { sdk, client: given ?? (made ??= newS3Client(sdk.s3, settings)) };
  };
  return {
    kind: 's3',
    async put(key, body, contentType) {
      const { sdk, client } = await ready();
      const upload = new sdk.storage.Upload({
        client,
        params: { Bucket, Key: checkedKey(key), Body: body, ContentType: contentType },
        queueSize: 1,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      });
      // Should the source fail (too large, not an image), the upload is abandoned rather than completed with what came so far.
      const failed = new Promise<never>((_, reject) => body.once('error', reject));
      failed.catch(() => {});
      try {
        await Promise.race([upload.done(), failed]);
      } catch (error) {
        await upload.abort().catch(() => {});
        body.destroy();
        // A single PutObject that got through before the source failed is removed again.
        await client.send(new sdk.s3.DeleteObjectCommand({ Bucket, Key: key })).catch(() => {});
        throw error;
      }
    },
    async get(key) {
      const { sdk, client } = await ready();
      try {
        const answer = await client.send(new sdk.s3.GetObjectCommand({ Bucket, Key: checkedKey(key) }));
        if (!(answer.Body instanceof Readable)) throw new Error('The S3 answer has no stream body');
        return { body: answer.Body, size: answer.ContentLength ?? 0 };
      } catch (error) {
        if (error instanceof sdk.s3.NoSuchKey || (error instanceof sdk.s3.S3ServiceException && error.$metadata.httpStatusCode === 404)) return undefined;
        throw error;
      }
    },
    async delete(key) {
      const { sdk, client } = await ready();
      await client.send(new sdk.s3.DeleteObjectCommand({ Bucket, Key: checkedKey(key) }));
    },
  };
}

type AwsSdk = { s3: typeof import('@aws-sdk/client-s3'); storage: typeof import('@aws-sdk/lib-storage') };
let sdkLoad: Promise<AwsSdk> | undefined;
/** The SDK's two packages, imported once, on the first S3 call of the process. */
const awsSdk = () => (sdkLoad ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, storage]) => ({ s3, storage })));

function newS3Client(s3: AwsSdk['s3'], settings: S3Settings): S3Client {
  return new s3.S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    // Many S3-compatible stores do not take the newer default checksums: ask for them only where S3 requires one.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
  });
}

/** A client as the store makes its own (for a test that hands the store one). */
export async function s3Client(settings: S3Settings): Promise<S3Client> {
  return newS3Client((await awsSdk()).s3, settings);
}

/** The store the configuration names: S3 when S3_BUCKET is set, else the disk at UPLOADS_PATH. */
export function createBlobStore(uploads: Config['uploads']): BlobStore {
  return uploads.s3 ? s3BlobStore(uploads.s3) : diskBlobStore(uploads.path);
}
