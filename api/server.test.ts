// The real server (api/server.ts) as a child process: what SIGTERM does to keep-alive clients.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { demoQuoteJson } from '../scripts/bench/demo-quote';
import { spawnServer, type ServerProcess } from '../scripts/bench/server-process';

interface Outcome {
  /** The whole request had been handed to the OS before SIGTERM was sent. */
  sentBeforeSignal: boolean;
  /** The whole request had been handed to the OS at all (after a refused connect it never is). */
  written: boolean;
  /** It went out on a keep-alive connection an earlier response left open. */
  reused?: boolean;
  status?: number;
  connection?: string;
  error?: string;
}

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop(1000);
  server = undefined;
});

describe('SIGTERM', () => {
  it('under keep-alive load answers every request already sent, closes the connections and exits 0', async () => {
    server = await spawnServer();
    const { url, child, exited } = server;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
    const outcomes: Outcome[] = [];
    let signalled = false;
    let exitedYet = false;
    void exited.then(() => (exitedYet = true));
    let answered = 0;
    let onAnswered = () => {};
    const body = demoQuoteJson('SW1A 1AA', 'EH1 1YZ');

    const one = () =>
      new Promise<void>((resolve) => {
        const outcome: Outcome = { sentBeforeSignal: false, written: false };
        outcomes.push(outcome);
        const req = http.request(
          `${url}/api/quotes/calculate`,
          { method: 'POST', agent, headers: { 'content-type': 'application/json' } },
          (res) => {
            res.resume();
            res.once('end', () => {
              outcome.status = res.statusCode;
              outcome.connection = res.headers.connection;
              answered++;
              onAnswered();
              resolve();
            });
            res.once('error', (error: NodeJS.ErrnoException) => {
              outcome.error = error.code ?? error.message;
              resolve();
            });
          },
        );
        req.once('finish', () => {
          outcome.sentBeforeSignal = !signalled;
          outcome.written = true;
          outcome.reused = req.reusedSocket;
        });
        req.once('error', (error: NodeJS.ErrnoException) => {
          outcome.error = error.code ?? error.message;
          resolve();
        });
        req.end(body);
      });
    const worker = async () => {
      while (!exitedYet) await one();
    };
    const workers = Array.from({ length: 32 }, worker);

    // Load until the server has answered a few hundred quotes, so every socket is warm and busy.
    await new Promise<void>((resolve) => (onAnswered = () => answered >= 300 && resolve()));
    signalled = true;
    child.kill('SIGTERM');
    const code = await exited;
    await Promise.all(workers);
    agent.destroy();

    expect(code).toBe(0);
    const sent = outcomes.filter((o) => o.sentBeforeSignal);
    expect(sent.length).toBeGreaterThan(300);
    expect(sent.filter((o) => o.status !== 200)).toEqual([]);
    // Those the server was still working on when the signal came were answered with `Connection: close`.
    expect(outcomes.some((o) => o.status === 200 && o.connection === 'close')).toBe(true);
    // Nor was any request sent after the signal reset: one on a keep-alive connection the server
    // had left open is answered, and a reconnect is refused before anything is sent (it used to
    // be accepted into the queue of a listener about to close, then reset with its request).
    expect(outcomes.filter((o) => o.written && o.status !== 200)).toEqual([]);
    expect(outcomes.filter((o) => !o.written).map((o) => o.error)).toEqual(outcomes.filter((o) => !o.written).map(() => 'ECONNREFUSED'));
  });

  it('closes idle keep-alive connections (within a second of their last response) and exits 0', async () => {
    server = await spawnServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const get = () =>
      new Promise<number | undefined>((resolve, reject) =>
        http.get(`${server!.url}/healthz`, { agent }, (res) => res.resume().once('end', () => resolve(res.statusCode))).once('error', reject),
      );
    await expect(Promise.all([get(), get(), get(), get()])).resolves.toEqual([200, 200, 200, 200]);
    server.child.kill('SIGTERM');
    await expect(server.exited).resolves.toBe(0);
    agent.destroy();
  });
});
