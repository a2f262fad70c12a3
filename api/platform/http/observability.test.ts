// The real server's logs when the log reader misbehaves, and when a client goes away mid-upload.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { demoQuoteJson } from '../../../scripts/bench/demo-quote';
import { runLoad } from '../../../scripts/bench/load';
import { spawnServer, startScriptNodeFlags, type ServerProcess } from '../../../scripts/bench/server-process';

const MB = 1024 * 1024;
const LOGGING = { LOG_LEVEL: 'info' };

let server: ServerProcess | undefined;
const stalledReaders: ChildProcess[] = [];
afterEach(async () => {
  await server?.stop(1000);
  server = undefined;
  for (const reader of stalledReaders.splice(0)) {
    reader.kill('SIGCONT');
    reader.kill();
  }
});

/** JSON lines from a stream, parsed, as they come. */
function collectLines(stream: Readable) {
  const lines: Record<string, unknown>[] = [];
  let rest = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  return lines;
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000) {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('request logs', () => {
  it('with a reader that stops reading: lines past the buffer are dropped and counted, memory stays bounded, requests are answered', async () => {
    // The server's stdout is a pipe to `cat`, stopped (SIGSTOP) like a stuck log shipper, then resumed.
    const reader = spawn('cat', [], { stdio: ['pipe', 'pipe', 'ignore'] });
    stalledReaders.push(reader);
    const lines = collectLines(reader.stdout!);
    // With npm start's heap flags, so the heap breathes as in production.
    server = await spawnServer({ env: LOGGING, stdout: reader.stdin!, nodeFlags: startScriptNodeFlags() });
    reader.kill('SIGSTOP');
    // A number of requests, not seconds of them: 1,000 quotes to warm the heap up, then 12,000
    // health checks, whose request lines (about 160 bytes each, some 1.9 MB) are nearly twice what
    // the 1 MiB buffer holds.
    const quotes = [{ method: 'POST' as const, path: '/api/quotes/calculate', body: demoQuoteJson('SW1A 1AA', 'EH1 1YZ') }];
    await runLoad(server, quotes, { connections: 10, durationSeconds: 30, amount: 1000 });
    const before = server.rssBytes()!;
    const load = await runLoad(server, [{ method: 'GET', path: '/healthz' }], { connections: 10, durationSeconds: 30, amount: 12_000 });
    expect(load.failures).toBe(0);
    expect(load.total).toBe(12_000);
    // Unbounded, every line waited in the heap (about 450 bytes each: 18 MB for 40,000 lines, and
    // growing for as long as the reader stayed stopped); bounded, what is left is the 1 MiB buffer
    // and the heap's own breathing.
    expect(load.peakRssBytes - before).toBeLessThan(40 * MB);

    // The reader is back: it gets whole lines, and one notice of how many it missed.
    reader.kill('SIGCONT');
    await until(() => lines.some((l) => l.dropped !== undefined), 'the dropped-lines notice', 10_000);
    const notice = lines.find((l) => l.dropped !== undefined)!;
    expect(notice).toMatchObject({ level: 'warn', msg: 'Log lines dropped while the log reader was not reading' });
    expect(notice.dropped).toBeGreaterThan(1000);
    expect(lines.filter((l) => l.dropped !== undefined)).toHaveLength(1);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    // Nor does a stuck reader hold the exit: SIGTERM ends in exit 0, not the deadline's 1.
    reader.kill('SIGSTOP');
    expect(await server.stop(8000)).toBe(0);
  }, 40_000);

  it('with a reader that goes away (like `| head -1`): the server keeps serving', async () => {
    server = await spawnServer({ env: LOGGING, stdout: 'pipe' });
    const stdout = server.child.stdout!;
    // The first line has been logged by now (the server answered the readiness poll); read one chunk and close.
    await new Promise((resolve) => stdout.once('readable', resolve));
    stdout.destroy();
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${server.url}/healthz`);
      expect(res.status).toBe(200);
    }
    const quote = await fetch(`${server.url}/api/quotes/calculate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: demoQuoteJson('SW1A 1AA', 'EH1 1YZ'),
    });
    expect(quote.status).toBe(200);
    expect(server.rssBytes()).toBeDefined();
    expect(server.stderr()).not.toMatch(/EPIPE/);
  });

  it('logs a client that disconnects mid-upload as an info line, with no 500 and no stack', async () => {
    server = await spawnServer({ env: LOGGING, stdout: 'pipe' });
    const lines = collectLines(server.child.stdout!);
    const body = demoQuoteJson('SW1A 1AA', 'EH1 1YZ');
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/quotes/calculate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 100}\r\n\r\n${body.slice(0, 20)}`,
    );
    socket.destroy();
    await until(() => lines.some((l) => l.path === '/api/quotes/calculate'), 'the request line');
    const aborted = lines.filter((l) => l.path === '/api/quotes/calculate');
    expect(aborted).toEqual([expect.objectContaining({ level: 'info', method: 'POST', status: 499 })]);
    expect(lines.filter((l) => l.level === 'error' || 'stack' in l)).toEqual([]);
    // And the server is fine.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});

/** What a module script printed to stdout; it must write nothing to stderr and exit 0. */
async function runScript(script: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const code = await new Promise((resolve) => child.once('close', resolve));
  expect(err).toBe('');
  expect(code).toBe(0);
  return out;
}

describe('createLogger', () => {
  it('drops lines past its buffer, counts them, and says how many once the reader has caught up', async () => {
    // A process that logs 2,000 lines in one go into a 4 KB buffer: most cannot be held.
    const script = `
      import { createLogger } from ${JSON.stringify(new URL('./observability.ts', import.meta.url).pathname)};
      const logger = createLogger('info', { maxBufferBytes: 4096 });
      for (let i = 0; i < 2000; i++) logger.info({ line: i, padding: 'x'.repeat(60) });
      await logger.close(5000);
    `;
    const out = await runScript(script);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const written = lines.filter((l) => typeof l.line === 'number');
    const notices = lines.filter((l) => l.dropped !== undefined);
    expect(written.length).toBeGreaterThan(0);
    expect(written.length).toBeLessThan(2000);
    expect(notices).toEqual([expect.objectContaining({ level: 'warn', dropped: 2000 - written.length })]);
    // What got through is whole lines, in order.
    const numbers = written.map((l) => l.line as number);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('writes the request line as exactly the bytes pino writes for it, and only when info lines are on', async () => {
    const script = `
      import { createLogger } from ${JSON.stringify(new URL('./observability.ts', import.meta.url).pathname)};
      const lines = [
        { requestId: 'a1b2c3d4-e5f6', method: 'POST', path: '/api/quotes/calculate', status: 200, durationMs: 1.3 },
        { requestId: 'quote-retry-0001', method: 'GET', path: '/api/company/slug/caf\u00e9 "quoted" \\ \u0001 \u2028', status: 404, durationMs: 0 },
        { requestId: 'x'.repeat(64), method: 'DELETE', path: '/api/x', status: 499, durationMs: Infinity },
        { requestId: 'nan-duration', method: 'PATCH', path: '/', status: 500, durationMs: NaN },
      ];
      for (const level of ['info', 'warn']) {
        const logger = createLogger(level);
        for (const line of lines) {
          logger.info({ ...line });
          logger.request(line);
        }
        await logger.close(5000);
      }
    `;
    const out = await runScript(script);
    // Only the info logger wrote: 4 lines by pino, each followed by the same line built directly.
    const written = out.split('\n');
    expect(written.pop()).toBe('');
    expect(written).toHaveLength(8);
    const sameTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    for (let i = 0; i < 8; i += 2) expect(sameTime(written[i + 1])).toBe(sameTime(written[i]));
    expect(JSON.parse(written[3])).toMatchObject({ level: 'info', status: 404, durationMs: 0 });
    expect(JSON.parse(written[3]).path).toContain('café "quoted"');
    expect(JSON.parse(written[3]).path).toContain('\u0001 \u2028');
    expect(JSON.parse(written[5])).toMatchObject({ status: 499, durationMs: null });
  });
});
