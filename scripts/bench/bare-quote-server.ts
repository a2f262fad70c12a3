// A reference for the quote benchmark, not a server to deploy: the quote route's own work
// (zod validation, the company and postcode look-ups, pricing, the committed insert: the same
// createQuoteService the API uses) behind a bare node:http handler, with no framework, no
// middleware, no rate limit. What it reaches is the ceiling for any framework on this machine
// (docs/decisions/008-quote-path-profile.md). STORE=0 also leaves out the insert.
import { createServer } from 'node:http';
import { createApp } from '../../api/app';
import { startBackgroundCheckpoints } from '../../api/db/checkpointer';
import { loadGeodata } from '../../api/distance/postcodes';
import { loadConfig } from '../../api/env';
import { createQuoteService } from '../../api/quotes/quote-service';
import { quoteRequestSchema } from '../../shared/schemas';

const config = loadConfig();
const { deps } = createApp({ config });
loadGeodata();
startBackgroundCheckpoints(deps.db.$client, config.databasePath, { onError: (error) => console.error(error) });
// STORE=0: everything but the insert, to show what storing each quote costs.
const quote = createQuoteService(process.env.STORE === '0' ? { ...deps, storeQuote: async () => 'UNSTORED' } : deps);

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = quoteRequestSchema.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    quote(body).then(
      (answer) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
