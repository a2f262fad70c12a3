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
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
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
  /**
   * The age in milliseconds of the oldest commit not yet in the replica (at most one poll too old):
   * 0 when it held every commit at the last look, null before Litestream was first read.
   */
  lagMs: number | null;
  /** Every commit made before this moment is in the replica (ISO), or null before the first look. */
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
  /** How often Litestream looks at the WAL for new frames (its own default is 1 s). */
  monitorIntervalMs?: number;
  /** How often the lag is read from Litestream's metrics (the lag is known to within it). */
  pollMs?: number;
  /** The first restart's delay; it doubles with each death in a row, up to `maxRestartDelayMs`. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A lag past this is logged as a warning (once per episode). */
  lagWarnMs?: number;
  /** The Litestream binary (tests may point at another). */
  binary?: string;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
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

/** A place in the WAL as Litestream numbers it: the shadow WAL file's index and a byte offset in it. */
export interface WalPosition {
  index: number;
  offset: number;
}

const isBefore = (a: WalPosition, b: WalPosition) => a.index < b.index || (a.index === b.index && a.offset < b.offset);

/**
 * From Litestream's Prometheus text: how far its copy of the WAL has come (`local`: every commit it
 * has seen) and how far the replica has (`replica`). Null until both are known.
 */
export function replicaPosition(metrics: string): { local: WalPosition; replica: WalPosition; behind: boolean } | null {
  const value = (name: string) => {
    const match = new RegExp(`^${name}\\{[^}]*\\} ([0-9.e+]+)$`, 'm').exec(metrics);
    return match ? Number(match[1]) : undefined;
  };
  const shadowIndex = value('litestream_shadow_wal_index');
  const shadowSize = value('litestream_shadow_wal_size');
  const replicaIndex = value('litestream_replica_wal_index');
  const replicaOffset = value('litestream_replica_wal_offset');
  if (shadowIndex === undefined || shadowSize === undefined || replicaIndex === undefined || replicaOffset === undefined) return null;
  const local = { index: shadowIndex, offset: shadowSize };
  const replica = { index: replicaIndex, offset: replicaOffset };
  return { local, replica, behind: isBefore(replica, local) };
}

/**
 * The replication lag: the age of the oldest commit not yet in the replica (decision 035). Under
 * steady writes the replica is never level with the database at the moment it is looked at, so
 * "time since it last was" grows without limit; what a loss would cost is how old the oldest
 * commit still missing from it is. Each sample of Litestream's positions remembers every new local
 * position with the time of the sample before (the commits up to it came after that: an upper
 * bound on their age, at most one sample interval too old), and forgets those the replica holds.
 * While Litestream cannot be read (dead, restarting), a change of the WAL file stands for a commit
 * whose position is not known yet; a restarted Litestream numbers the WAL afresh, so every
 * remembered commit becomes one of those, and is placed at the first position the new one reports.
 */
export function createLagTracker() {
  let pending: { position: WalPosition | null; since: number }[] = [];
  let lastSampleAt: number | null = null;
  let lastLocal: WalPosition | null = null;
  let sampled = false;
  return {
    /** A sample of Litestream's metrics taken at `at`. */
    sample(at: number, local: WalPosition, replica: WalPosition) {
      const since = lastSampleAt ?? at;
      // Numbered afresh (a new generation): what was pending is placed at the new position.
      if (lastLocal !== null && isBefore(local, lastLocal)) for (const entry of pending) entry.position = null;
      for (const entry of pending) entry.position ??= local;
      if (lastLocal === null || isBefore(lastLocal, local)) pending.push({ position: local, since });
      pending = pending.filter((entry) => entry.position !== null && isBefore(replica, entry.position));
      lastLocal = local;
      lastSampleAt = at;
      sampled = true;
    },
    /** Litestream could not be read at `at`; `walChanged`: the WAL file changed since the last look. */
    unreadable(at: number, walChanged: boolean) {
      if (walChanged) pending.push({ position: null, since: lastSampleAt ?? at });
      lastSampleAt = at;
    },
    /** A new Litestream process: positions start again, so what was pending waits for its first sample. */
    restarted() {
      for (const entry of pending) entry.position = null;
      lastLocal = null;
    },
    /** Milliseconds: 0 when the replica held everything at the last sample; null before the first sample. */
    lagMs(now: number): number | null {
      if (pending.length > 0) return Math.max(0, now - pending[0].since);
      return sampled ? 0 : null;
    },
    /** Every commit made before this moment is in the replica (null before the first sample). */
    syncedAt(): number | null {
      if (pending.length > 0) return pending[0].since;
      return sampled ? lastSampleAt : null;
    },
  };
}

export function createReplication(options: ReplicationOptions): Replication {
  const { databasePath, replicaUrl, logger } = options;
  // A quarter of a second: the recovery point is "nothing answered more than 1 s before a loss",
  // which a 1 s interval met only on an idle machine. Litestream uploads only when there are new frames.
  const syncIntervalMs = options.syncIntervalMs ?? 250;
  const monitorIntervalMs = options.monitorIntervalMs ?? 100;
  // The lag is known to within one poll (createLagTracker), so it is read four times a second.
  const pollMs = options.pollMs ?? 250;
  const clock = options.now ?? Date.now;
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
  const lag = createLagTracker();
  let lagWarned = false;
  /** The WAL file as last looked at (undefined before the first look). */
  let walSeen: string | undefined;
  let polling = false;
  let exited: Promise<void> = Promise.resolve();
  /** Litestream's own process id, as the guarding shell reports it. */
  let childPid: number | undefined;

  function writeConfig() {
    mkdirSync(path.dirname(configFile), { recursive: true });
    // JSON is YAML: no quoting rules to get wrong for paths and URLs.
    const config = {
      addr: `127.0.0.1:${metricsPort}`,
      // Litestream looks at the WAL for new frames every monitor interval (1 s by default) and only
      // then can a sync upload them: the recovery point is the sum of the two, so both are short.
      dbs: [{ path: dbFile, 'monitor-interval': `${monitorIntervalMs}ms`, replicas: [{ url: replicaUrl, 'sync-interval': `${syncIntervalMs}ms` }] }],
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
    lag.restarted();
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

  /** The WAL file's size and time of change: while Litestream cannot be read, a change is a commit it has not copied. */
  function walChanged(): boolean {
    let seen = '';
    try {
      const stat = statSync(`${dbFile}-wal`);
      seen = `${stat.size}:${stat.mtimeMs}`;
    } catch {
      // No WAL file (yet): nothing written.
    }
    const changed = walSeen !== undefined && seen !== walSeen;
    walSeen = seen;
    return changed;
  }

  async function poll() {
    // One look at a time: a slow answer must not let a later look be applied before it.
    if (polling) return;
    polling = true;
    try {
      await look();
    } finally {
      polling = false;
    }
  }

  async function look() {
    let position: ReturnType<typeof replicaPosition> = null;
    if (child) {
      try {
        const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(Math.max(pollMs, 1000)) });
        position = replicaPosition(await response.text());
      } catch {
        // Litestream not listening yet (starting, or restarting): the status says not running.
      }
    }
    const now = clock();
    const changed = walChanged();
    if (position) lag.sample(now, position.local, position.replica);
    else lag.unreadable(now, changed);
    const lagMs = lag.lagMs(now);
    if (lagMs === 0) {
      if (lagWarned) logger.info({ msg: 'Replication caught up', replica });
      lagWarned = false;
      failuresInARow = 0;
    } else if (lagMs !== null && lagMs > lagWarnMs && !lagWarned) {
      lagWarned = true;
      logger.warn({ msg: 'Replication is behind', replica, lagMs });
    }
  }

  return {
    async start() {
      metricsPort = await freePort();
      writeConfig();
      launch();
      pollTimer = setInterval(() => void poll(), pollMs);
      pollTimer.unref();
      logger.info({ msg: 'Replication started', replica, monitorIntervalMs, syncIntervalMs });
    },
    status() {
      const syncedAt = lag.syncedAt();
      return {
        replica,
        running: child !== undefined,
        restarts,
        lagMs: lag.lagMs(clock()),
        syncedAt: syncedAt === null ? null : new Date(syncedAt).toISOString(),
      };
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
        // Litestream may be gone already (the guard exits after it): nothing left to kill is fine.
        if (pid) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // ESRCH: already exited.
          }
        }
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
