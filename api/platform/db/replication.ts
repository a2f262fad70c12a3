// Continuous replication of the SQLite file with Litestream (docs/decisions/019-replication-and-restore.md).
// With REPLICA_URL set the server runs Litestream as a supervised child process: Litestream copies
// every committed WAL frame to the replica within about a second, so a lost disk loses at most
// that second, not the day since the last `npm run backup`. The child is restarted with a
// doubling delay if it dies, its lag is read from its own metrics endpoint (loopback only) and
// reported by /readyz and in the log, and it is stopped after the database closes on SIGTERM, so
// its last sync carries the final commits.
//
// Litestream must own checkpoints: it keeps a read transaction open so that nobody checkpoints
// WAL frames it has not copied yet, and runs the checkpoints itself. So with replication on, the
// server's own checkpoint worker is not started and SQLite's automatic checkpoint is turned off
// on the server's connection (api/boot.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from '../http/observability';

export interface ReplicationStatus {
  /** Where the copies go, with any credentials taken out. */
  replica: string;
  running: boolean;
  /** How many times the child has been started again after dying. */
  restarts: number;
  /** Milliseconds since the replica last held every committed frame; 0 when it does now, null before the first sync. */
  lagMs: number | null;
  /** When the replica last held every committed frame (ISO), or null. */
  syncedAt: string | null;
}

export interface Replication {
  start(): Promise<void>;
  status(): ReplicationStatus;
  /** The child's process id while it runs (diagnostics and tests). */
  pid(): number | undefined;
  /** Stops the child (SIGTERM, then SIGKILL after `graceMs`) and resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface ReplicationOptions {
  databasePath: string;
  replicaUrl: string;
  logger: Logger;
  /** How often Litestream copies new WAL frames to the replica. */
  syncIntervalMs?: number;
  /** How often the lag is read from Litestream's metrics. */
  pollMs?: number;
  /** The first restart's delay; it doubles with each death in a row, up to `maxRestartDelayMs`. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A lag past this is logged as a warning (once per episode). */
  lagWarnMs?: number;
  /** The Litestream binary (tests may point at another). */
  binary?: string;
}

/**
 * Runs `$0 replicate -config $1`, prints its pid, and stops it with SIGTERM once standard input
 * closes; exits with Litestream's status. (An asynchronous list's input is /dev/null unless
 * redirected, hence the copy of standard input on descriptor 3.)
 */
const GUARD = `exec 3<&0
"$0" replicate -config "$1" </dev/null &
child=$!
echo "$child"
( read -r _ <&3; kill -TERM "$child" 2>/dev/null ) &
watcher=$!
wait "$child"
code=$?
kill "$watcher" 2>/dev/null
exit "$code"`;

/** The Litestream binary the `@flydotio/litestream` package installs for this platform. */
export function litestreamBinary(): string {
  const require = createRequire(import.meta.url);
  const pkg = path.dirname(require.resolve(`@flydotio/litestream-${process.platform}-${process.arch}/package.json`));
  return path.join(pkg, 'litestream');
}

/** `s3://key:secret@bucket/db` → `s3://bucket/db`: a replica URL fit for a log line. */
export function redactReplicaUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return '(unparsable replica URL)';
  }
}

/** A free loopback port for Litestream's metrics. */
async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The numbers of Litestream's Prometheus text that say whether the replica has caught up. */
export function replicaPosition(metrics: string): { behind: boolean } | null {
  const value = (name: string) => {
    const match = new RegExp(`^${name}\\{[^}]*\\} ([0-9.e+]+)$`, 'm').exec(metrics);
    return match ? Number(match[1]) : undefined;
  };
  const shadowIndex = value('litestream_shadow_wal_index');
  const shadowSize = value('litestream_shadow_wal_size');
  const replicaIndex = value('litestream_replica_wal_index');
  const replicaOffset = value('litestream_replica_wal_offset');
  if (shadowIndex === undefined || shadowSize === undefined || replicaIndex === undefined || replicaOffset === undefined) return null;
  return { behind: replicaIndex < shadowIndex || (replicaIndex === shadowIndex && replicaOffset < shadowSize) };
}

export function createReplication(options: ReplicationOptions): Replication {
  const { databasePath, replicaUrl, logger } = options;
  const syncIntervalMs = options.syncIntervalMs ?? 1000;
  const pollMs = options.pollMs ?? 1000;
  const restartDelayMs = options.restartDelayMs ?? 1000;
  const maxRestartDelayMs = options.maxRestartDelayMs ?? 60_000;
  const lagWarnMs = options.lagWarnMs ?? 30_000;
  const replica = redactReplicaUrl(replicaUrl);
  const dbFile = path.resolve(databasePath);
  const configFile = path.join(path.dirname(dbFile), `.${path.basename(dbFile)}.litestream.yml`);

  let child: ChildProcess | undefined;
  let stopping = false;
  let restarts = 0;
  let failuresInARow = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let metricsPort = 0;
  let syncedAt: number | null = null;
  let behindSince: number | null = null;
  let lagWarned = false;
  let exited: Promise<void> = Promise.resolve();
  /** Litestream's own process id, as the guarding shell reports it. */
  let childPid: number | undefined;

  function writeConfig() {
    mkdirSync(path.dirname(configFile), { recursive: true });
    // JSON is YAML: no quoting rules to get wrong for paths and URLs.
    const config = {
      addr: `127.0.0.1:${metricsPort}`,
      dbs: [{ path: dbFile, replicas: [{ url: replicaUrl, 'sync-interval': `${syncIntervalMs}ms` }] }],
    };
    writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  }

  function launch() {
    if (stopping) return;
    const started = performance.now();
    // Through a small shell that holds a pipe from this process: when the pipe closes (stop(), or
    // this process killed with SIGKILL) it stops Litestream with SIGTERM. A Litestream left running
    // after a crash would go on beside the one the restarted server starts, both writing the replica.
    const proc = spawn('/bin/sh', ['-c', GUARD, options.binary ?? litestreamBinary(), configFile], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: process.env,
    });
    child = proc;
    childPid = undefined;
    proc.stdin?.on('error', () => {});
    proc.stdout?.setEncoding('utf8').once('data', (chunk: string) => {
      const pid = Number.parseInt(chunk, 10);
      if (Number.isInteger(pid) && pid > 0) childPid = pid;
    });
    let lastLine = '';
    proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n')) {
        if (!line.trim()) continue;
        lastLine = line.slice(0, 500);
        // Litestream's own warnings and errors reach the log; its routine lines only the status.
        if (/level=(ERROR|WARN)/.test(line)) logger.warn({ msg: 'Litestream', line: lastLine });
      }
    });
    exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        child = undefined;
        childPid = undefined;
        resolve();
        if (stopping) return;
        // A child that ran for a minute before dying starts a fresh count of failures.
        failuresInARow = performance.now() - started > 60_000 ? 1 : failuresInARow + 1;
        const delay = Math.min(restartDelayMs * 2 ** (failuresInARow - 1), maxRestartDelayMs);
        logger.error({ msg: 'Replication stopped; restarting', replica, code, signal, restartInMs: delay, failuresInARow, lastLine });
        restartTimer = setTimeout(() => {
          restarts += 1;
          launch();
        }, delay);
        restartTimer.unref();
      });
    });
    proc.once('error', (error) => logger.error({ msg: 'Replication could not start', replica, error: error.message }));
  }

  async function poll() {
    if (!child) return;
    try {
      const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(pollMs) });
      const position = replicaPosition(await response.text());
      if (!position) return;
      const now = Date.now();
      if (!position.behind) {
        if (lagWarned) logger.info({ msg: 'Replication caught up', replica, behindForMs: behindSince === null ? 0 : now - behindSince });
        syncedAt = now;
        behindSince = null;
        lagWarned = false;
        failuresInARow = 0;
        return;
      }
      behindSince ??= now;
      const lag = now - (syncedAt ?? behindSince);
      if (lag > lagWarnMs && !lagWarned) {
        lagWarned = true;
        logger.warn({ msg: 'Replication is behind', replica, lagMs: lag });
      }
    } catch {
      // Litestream not listening yet (starting, or restarting): the status says not running.
    }
  }

  return {
    async start() {
      metricsPort = await freePort();
      writeConfig();
      launch();
      pollTimer = setInterval(() => void poll(), pollMs);
      pollTimer.unref();
      logger.info({ msg: 'Replication started', replica, syncIntervalMs });
    },
    status() {
      const now = Date.now();
      const lagMs = syncedAt === null ? null : behindSince === null ? 0 : now - syncedAt;
      return { replica, running: child !== undefined, restarts, lagMs, syncedAt: syncedAt === null ? null : new Date(syncedAt).toISOString() };
    },
    pid: () => childPid,
    async stop(graceMs = 5000) {
      stopping = true;
      clearTimeout(restartTimer);
      clearInterval(pollTimer);
      const proc = child;
      if (!proc) return;
      // Closing the pipe makes the guard send SIGTERM; Litestream syncs once more as it closes.
      const pid = childPid;
      proc.stdin?.end();
      const kill = setTimeout(() => {
        if (pid) process.kill(pid, 'SIGKILL');
        proc.kill('SIGKILL');
      }, graceMs);
      await exited;
      clearTimeout(kill);
      logger.info({ msg: 'Replication stopped', replica });
    },
  };
}

/** True when `url` names a replica Litestream can write to: file:///absolute/path or s3://bucket/path. */
export function isReplicaUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'file:') return parsed.pathname.length > 1;
    return ['s3:', 'gcs:', 'abs:', 'sftp:'].includes(parsed.protocol) && parsed.hostname.length > 0;
  } catch {
    return false;
  }
}
