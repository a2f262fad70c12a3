// One autocannon run (programmatic API) against a spawned server, sampling the server's RSS while
// it runs. The quote route and the trivial route are measured with these same settings.
import autocannon from 'autocannon';
import type { ServerProcess } from './server-process';

export interface LoadSettings {
  connections: number;
  /** How long to send for (ignored with `amount`). */
  durationSeconds: number;
  /**
   * How many requests to send in all, however long they take: a fixed amount of work, for a test
   * that needs so many requests rather than so many seconds (autocannon then ignores the duration).
   */
  amount?: number;
}

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  body?: string;
  /**
   * A body made afresh for each request sent, from a count all connections share: a write that
   * must change something every time (each connection otherwise sends the same list in lockstep).
   */
  bodyOf?: (n: number) => string;
  headers?: Record<string, string>;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Connection errors, timeouts and non-2xx answers together. */
  failures: number;
  /** Of those, the answers with a status other than 2xx (a refusal: the section measured something else). */
  non2xx: number;
  peakRssBytes: number;
}

export async function runLoad(server: ServerProcess, requests: LoadRequest[], settings: LoadSettings): Promise<LoadResult> {
  let peakRssBytes = 0;
  const sampleRss = () => (peakRssBytes = Math.max(peakRssBytes, server.rssBytes() ?? 0));
  const sampler = setInterval(sampleRss, 100);
  let sent = 0;
  try {
    const result = await autocannon({
      url: server.url,
      connections: settings.connections,
      duration: settings.durationSeconds,
      ...(settings.amount === undefined ? {} : { amount: settings.amount }),
      // Prebuilt once per connection rather than per request, so the load generator (which shares
      // the machine with the server) spends as little as possible per request.
      requests: requests.map((r) => {
        const { bodyOf } = r;
        const json = r.body !== undefined || bodyOf !== undefined;
        return {
          method: r.method,
          path: r.path,
          ...(r.body === undefined ? {} : { body: r.body }),
          ...(bodyOf ? { setupRequest: (request: autocannon.Request) => ({ ...request, body: bodyOf(sent++) }) } : {}),
          headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...r.headers },
        };
      }),
    });
    sampleRss();
    return {
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      total: result.requests.total,
      failures: result.errors + result.timeouts + result.non2xx,
      non2xx: result.non2xx,
      peakRssBytes,
    };
  } finally {
    clearInterval(sampler);
  }
}
