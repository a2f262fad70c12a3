// The alerts budget (docs/budgets.md): quote throughput and p99 with every company alerted for each quote
// and the mail worker sending to an SMTP server, against the same load with alerts off. Two
// servers on two databases with the same companies, measured in alternating slices; the server
// not being measured is paused (SIGSTOP), so its worker cannot take the cores from the other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startSmtpSink } from '../../api/test/smtp-sink';
import { fillDatabase } from './fill-database';
import type { LoadRequest, LoadSettings } from './load';
import { alternatingSlices, type SliceSummary } from './reliability';
import { spawnServer } from './server-process';

export const ALERT_COMPANIES = 50;
export const ALERT_ROUNDS = 6;
export const ALERT_SLICE: LoadSettings = { connections: 10, durationSeconds: 5 };

export interface AlertFigures {
  off: SliceSummary;
  on: SliceSummary;
  /** The alerts-on database afterwards: quotes stored, outbox rows by status. */
  quotes: number;
  outbox: Record<string, number>;
  /** Messages the SMTP server accepted. */
  accepted: number;
}

export async function measureAlerts(script: string, requests: LoadRequest[]): Promise<AlertFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), 'recovery-bench-alerts-'));
  const sink = await startSmtpSink({ keep: false });
  try {
    const paths = { off: path.join(dir, 'off.db'), on: path.join(dir, 'on.db') };
    for (const [name, file] of Object.entries(paths)) {
      fillDatabase(file, { companies: ALERT_COMPANIES, quotes: 0 });
      const db = new Database(file);
      db.prepare('update companies set alert_mode = ?').run(name === 'on' ? 'each' : 'none');
      db.close();
    }
    // Both with SMTP_URL: what differs is only whether there is mail to send. No grace before a
    // quote's alert (decision 054): it delays the same rows by 5 minutes, and the run is shorter
    // than that, so with it the run would measure none of them.
    const env = { SMTP_URL: sink.url, MAIL_FROM: 'Bench <bench@localhost>', QUOTE_ALERT_GRACE_SECONDS: '0' };
    const servers = {
      off: await spawnServer({ script, databasePath: paths.off, env }),
      on: await spawnServer({ script, databasePath: paths.on, env }),
    };
    const other = { off: servers.on, on: servers.off };
    let figures: Record<'off' | 'on', SliceSummary>;
    try {
      figures = await alternatingSlices(servers, requests, {
        rounds: ALERT_ROUNDS,
        slice: ALERT_SLICE,
        before: (name) => {
          other[name].child.kill('SIGSTOP');
          servers[name].child.kill('SIGCONT');
        },
      });
    } finally {
      for (const server of Object.values(servers)) {
        server.child.kill('SIGCONT');
        await server.stop();
      }
    }
    const db = new Database(paths.on, { readonly: true });
    const quotes = db.prepare('select count(*) from quotes').pluck().get() as number;
    const rows = db.prepare('select status, count(*) as n from mail_outbox group by status').all() as { status: string; n: number }[];
    db.close();
    return { ...figures, quotes, outbox: Object.fromEntries(rows.map((r) => [r.status, r.n])), accepted: sink.accepted };
  } finally {
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
