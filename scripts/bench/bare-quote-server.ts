// A reference for the quote benchmark, not a server to deploy: the quote route's own work
// (zod validation, the company and postcode look-ups, pricing, the committed insert: the same
// createQuoteService the API uses) behind a bare node:http handler, with no framework, no
// middleware, no rate limit. What it reaches is the ceiling for any framework on this machine
// (docs/decisions/008-quote-path-profile.md). STORE=0 also leaves out the insert.
import { createServer, type ServerResponse } from 'node:http';
import { bootApp } from '../../api/boot';
import { loadConfig } from '../../api/platform/config';
import { createQuoteService } from '../../api/quotes/quote-service';
import { quoteRequestSchema } from '#shared/schemas';

const { deps } = bootApp(loadConfig());
// STORE=0: everything but the insert, to show what storing each quote costs.
const quote = createQuoteService(process.env.STORE === '0' ? { ...deps, storeQuote: async () => 'UNSTORED' } : deps);
const answer = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    answer(res, 200, { status: 'ok' });
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let body: ReturnType<typeof quoteRequestSchema.parse>;
    try {
      body = quoteRequestSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      answer(res, 400, { message: 'Invalid quote request' });
      return;
    }
    quote(body).then(
      (quoted) => answer(res, 200, quoted),
      (error: Error) => answer(res, 500, { message: error.message }),
    );
  });
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
