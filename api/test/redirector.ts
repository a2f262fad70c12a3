// Two servers on 127.0.0.1 for the redirect tests of the outbound calls that carry a secret (the
// DVLA's key, the SMS provider's credentials): `url` answers every request with a redirect to
// `target`, another origin that records whatever reaches it, headers included.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Redirector {
  /** Answers every request with `status` and a Location on `target`. */
  url: string;
  /** The other origin's base URL. */
  target: string;
  /** Requests that reached the other origin. */
  reached: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  /** Requests the redirecting server answered. */
  redirected: number;
  close(): Promise<void>;
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const shut = (server: Server) =>
  new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

export async function startRedirector(status = 307): Promise<Redirector> {
  const other = createServer((req, res) => {
    redirector.reached.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const redirecting = createServer((req, res) => {
    redirector.redirected += 1;
    req.resume();
    res.writeHead(status, { location: `${redirector.target}${req.url ?? '/'}` }).end();
  });
  const redirector: Redirector = {
    url: '',
    target: '',
    reached: [],
    redirected: 0,
    close: async () => {
      await Promise.all([shut(other), shut(redirecting)]);
    },
  };
  redirector.target = await listen(other);
  redirector.url = await listen(redirecting);
  return redirector;
}
