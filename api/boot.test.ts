// A serving process sends what any feature writes to the outbox at once, not at the lanes' next
// tick: here the lanes' interval never fires (only setInterval is faked), so a mail that arrives
// came by the nudge every outbox write gives.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { bootApp } from './boot';
import { loadConfig } from './platform/config';
import { createLogger } from './platform/http/observability';
import { startSmtpSink, type SmtpSink } from './test/smtp-sink';

let sink: SmtpSink;
let booted: ReturnType<typeof bootApp> | undefined;

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  sink = await startSmtpSink();
});

afterEach(async () => {
  await booted?.jobs.stop();
  booted?.checkpoints?.stop();
  booted?.deps.db.$client.close();
  booted = undefined;
  vi.useRealTimers();
  await sink.close();
});

it('a sign-up’s verification mail goes by the nudge of its outbox write, with the lanes’ interval stopped', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-boot-'));
  const origin = 'http://localhost:3999';
  booted = bootApp(
    loadConfig({ DATABASE_PATH: path.join(dir, 'boot.db'), PUBLIC_URL: origin, SMTP_URL: sink.url, MAIL_FROM: 'Recovery <alerts@example.com>' }),
    createLogger('silent'),
  );
  // The lanes' first run at start finds nothing yet.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const signup = await booted.app.request('/api/signup', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ name: 'Nudge Test', email: 'nudge@example.com', password: 'correct-horse-battery', companyName: 'Nudge Recovery' }),
  });
  expect(signup.status).toBe(201);
  // Not vi.waitFor: with fake timers it moves them on, and the lanes' interval would fire.
  for (const until = Date.now() + 10_000; sink.received.length === 0 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(sink.received.map((mail) => mail.to)).toEqual([['nudge@example.com']]);
});
