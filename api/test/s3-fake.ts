// A fake S3-compatible object store in process on 127.0.0.1 (an ephemeral port), path-style
// (`/bucket/key`): PUT, GET, HEAD and DELETE of an object, and the multipart upload lib-storage
// uses for large bodies (create, upload part, complete, abort). It checks that each request is
// signed (an AWS4 Authorization header for its access key) and keeps objects in memory. Used by
// the proof-of-condition tests and browser journey (S3_BUCKET set).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Fake {
  /** S3_ENDPOINT for the server under test. */
  url: string;
  bucket: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  /** Multipart uploads begun and neither completed nor aborted. */
  readonly openUploads: number;
  /** How many multipart uploads were completed, and aborted. */
  multipart: { completed: number; aborted: number };
  /** Requests by method, for tests that check what the store was asked. */
  requests: { method: string; path: string }[];
  /** S3_* for the server under test. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** An `aws-chunked` body (`size;chunk-signature=…\r\ndata\r\n` … `0\r\n` trailers) back to its bytes. */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.subarray(at, lineEnd).toString('latin1').split(';')[0], 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

const xml = (res: ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
};
const s3Error = (res: ServerResponse, status: number, code: string) => xml(res, status, `<Error><Code>${code}</Code><Message>${code}</Message></Error>`);

export async function startS3Fake(options: { bucket?: string; accessKeyId?: string; secretAccessKey?: string; port?: number } = {}): Promise<S3Fake> {
  const bucket = options.bucket ?? 'proof-test';
  const accessKeyId = options.accessKeyId ?? 'AKIAFAKE0000000000';
  const secretAccessKey = options.secretAccessKey ?? 'fake-secret-access-key-0000000000000000';
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer>; contentType: string }>();
  const fake: S3Fake = {
    url: '',
    bucket,
    objects: new Map(),
    get openUploads() {
      return uploads.size;
    },
    multipart: { completed: 0, aborted: 0 },
    requests: [],
    env() {
      return {
        S3_BUCKET: bucket,
        S3_ENDPOINT: fake.url,
        S3_REGION: 'eu-west-2',
        S3_ACCESS_KEY_ID: accessKeyId,
        S3_SECRET_ACCESS_KEY: secretAccessKey,
        S3_FORCE_PATH_STYLE: '1',
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    fake.requests.push({ method, path: url.pathname });
    const raw = await readBody(req);
    if (!String(req.headers.authorization ?? '').startsWith(`AWS4-HMAC-SHA256 Credential=${accessKeyId}/`)) return s3Error(res, 403, 'AccessDenied');
    const [, bucketName, ...rest] = url.pathname.split('/');
    if (bucketName !== bucket) return s3Error(res, 404, 'NoSuchBucket');
    const key = decodeURIComponent(rest.join('/'));
    const body = String(req.headers['content-encoding'] ?? '').includes('aws-chunked') ? dechunk(raw) : raw;
    const contentType = String(req.headers['content-type'] ?? 'application/octet-stream');
    const uploadId = url.searchParams.get('uploadId');

    if (method === 'POST' && url.searchParams.has('uploads')) {
      const id = randomBytes(12).toString('hex');
      uploads.set(id, { key, parts: new Map(), contentType });
      return xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (uploadId !== null) {
      const upload = uploads.get(uploadId);
      if (!upload) return s3Error(res, 404, 'NoSuchUpload');
      if (method === 'PUT') {
        const part = Number(url.searchParams.get('partNumber'));
        upload.parts.set(part, body);
        res.writeHead(200, { etag: `"part-${part}"` });
        return res.end();
      }
      if (method === 'POST') {
        const numbers = [...upload.parts.keys()].sort((a, b) => a - b);
        fake.objects.set(upload.key, { body: Buffer.concat(numbers.map((n) => upload.parts.get(n)!)), contentType: upload.contentType });
        uploads.delete(uploadId);
        fake.multipart.completed += 1;
        return xml(
          res,
          200,
          `<CompleteMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${upload.key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
        );
      }
      if (method === 'DELETE') {
        uploads.delete(uploadId);
        fake.multipart.aborted += 1;
        res.writeHead(204);
        return res.end();
      }
    }
    if (method === 'PUT') {
      fake.objects.set(key, { body, contentType });
      res.writeHead(200, { etag: '"object"' });
      return res.end();
    }
    if (method === 'GET' || method === 'HEAD') {
      const object = fake.objects.get(key);
      if (!object) return s3Error(res, 404, 'NoSuchKey');
      res.writeHead(200, { 'content-type': object.contentType, 'content-length': object.body.length, etag: '"object"' });
      return res.end(method === 'GET' ? object.body : undefined);
    }
    if (method === 'DELETE') {
      fake.objects.delete(key);
      res.writeHead(204);
      return res.end();
    }
    return s3Error(res, 405, 'MethodNotAllowed');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
