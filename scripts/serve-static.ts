// A plain static file server for examples/: stands in for an operator's own website on
// another origin in browser tests. Usage: tsx scripts/serve-static.ts <dir> <port>
// The examples point at http://localhost:3000 (what `npm start` serves); with API_ORIGIN set,
// HTML pages are served with that origin instead, so tests can run the API on another port.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? 'examples');
const port = Number(process.argv[3] ?? 4174);
const apiOrigin = process.env.API_ORIGIN;
const EXAMPLES_API = 'http://localhost:3000';
const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, ''));
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return;
  }
  const type = types[path.extname(file)] ?? 'application/octet-stream';
  if (apiOrigin && path.extname(file) === '.html') {
    res.writeHead(200, { 'Content-Type': type }).end(readFileSync(file, 'utf8').replaceAll(EXAMPLES_API, apiOrigin));
    return;
  }
  res.writeHead(200, { 'Content-Type': type });
  createReadStream(file).pipe(res);
}).listen(port, '127.0.0.1');
