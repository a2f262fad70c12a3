// WAL checkpoints off the event loop. By default SQLite checkpoints inside whichever commit
// pushes the WAL past 1,000 pages: that commit then copies pages into the database file and
// fsyncs both files while every request waits behind it. Under quote load that was several
// times a second, and the main cause of the quote route's p99 (docs/decisions/008-quote-path-profile.md).
// Here a worker thread, on its own connection, runs PASSIVE checkpoints on a timer instead:
// they never block a writer, and the fsyncs happen on another thread. Should the worker fail or
// exit, the main connection checkpoints in-line meanwhile and the worker is started again after a
// delay that doubles with each failure in a row (the caller logs each one). Once writes pause, the
// worker also cuts an oversized WAL back, so the file does not keep its peak size for good; while
// they go on, neither it nor a commit cuts the file (decision 060).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface CheckpointResult {
  /** 1 when a checkpoint could not run to completion right now (PASSIVE never waits). */
  busy: number;
  /** Frames in the WAL, and how many of them are now in the database file. */
  log: number;
  checkpointed: number;
}

export interface BackgroundCheckpoints {
  /** Calls `listener` after every checkpoint the worker runs (for tests and diagnostics). */
  onCheckpoint(listener: (result: CheckpointResult) => void): void;
  /**
   * The WAL's length in bytes since it last started over, as of the worker's last checkpoint: how
   * far checkpoints are behind the writes (the retention job's pacer waits while it is past the
   * limit). Undefined while the worker is down or has not checkpointed yet; the WAL file's size
   * says the same then, as a commit that starts the WAL over cuts the file back meanwhile.
   */
  walBytes(): number | undefined;
  /** Stops the worker and closes its connection; resolves once it has exited. */
  stop(): Promise<void>;
}

export interface CheckpointOptions {
  /** How often the worker checkpoints. */
  intervalMs?: number;
  /**
   * The main connection still checkpoints by itself past this many WAL pages: a safety net should
   * the worker fall behind. Normal running never reaches it, because a fully checkpointed WAL is
   * rewritten from its start by the next commit.
   */
  fallbackPages?: number;
  /** Called when the worker fails or exits, with how long until it is started again and how many failures in a row this makes. */
  onError?: (error: Error, restartInMs: number, failuresInARow: number) => void;
  /** Called when a restarted worker checkpoints again, with how many failures in a row came before. */
  onRecovered?: (failures: number) => void;
  /** The first restart's delay; it doubles with each failure in a row, up to `maxRestartDelayMs`. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
}

/** An oversized WAL is cut back once writes pause (here), or by the commit that starts it over while the worker is down (`journal_size_limit`). */
export const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/** What SQLite's default would do: restored on the main connection if the worker fails. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// Plain CommonJS evaluated as the worker, so it runs the same from the sources (tsx, Vitest) and
// from the production bundle, with no second entry point to build or locate.
const WORKER_SOURCE = `
const { statSync } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// better-sqlite3's SqliteError reaches the parent as { code } alone, without its message: rethrown
// as a plain Error, the parent can log why the worker failed.
function plainError(error) {
  if (!(error instanceof Error)) return new Error(String(error));
  return new Error(error.code ? error.code + ': ' + error.message : error.message);
}
function guarded(run) {
  try {
    return run();
  } catch (error) {
    throw plainError(error);
  }
}
// No busy timeout (better-sqlite3's default is 5 s): a checkpoint that cannot take a lock gives
// up at once and tries again next time. Waiting would hold the write lock a TRUNCATE takes while
// it waits for readers, and the server's writers would wait behind it.
const db = guarded(() => new Database(workerData.file, { fileMustExist: true, timeout: 0 }));
guarded(() => db.pragma('journal_size_limit = ' + workerData.walLimitBytes));
let timer;
// Results are posted only once someone listens (tests, diagnostics): not ten idle messages a second.
let report = false;
let healthy = false;
function walBytes() {
  try {
    return statSync(workerData.file + '-wal').size;
  } catch {
    return 0;
  }
}
function checkpoint() {
  guarded(checkpointOnce);
  timer = setTimeout(checkpoint, workerData.intervalMs);
}
// data_version changes when another connection commits: the same value twice means no writes
// between two ticks.
let lastVersion;
function checkpointOnce() {
  const version = db.pragma('data_version', { simple: true });
  const idle = version === lastVersion;
  lastVersion = version;
  let [result] = db.pragma('wal_checkpoint(PASSIVE)');
  // The WAL file keeps the size of its longest run between checkpoints: while this worker runs,
  // the server's connection has no journal_size_limit, so no commit cuts it back (a cut there
  // would run on the thread that serves requests). So once writes have stopped for a tick,
  // everything is in the database file and the WAL is still oversized, truncate it here: it
  // waits for nothing (no busy timeout on this connection: busy if a reader or writer is in the
  // way) and copies no page. Never while writes go on: a TRUNCATE holds the write lock through
  // the ftruncate (milliseconds on a disk that discards freed blocks), every writer sleeps in its
  // busy handler meanwhile, and the next commits must allocate the file's blocks again.
  if (idle && result.busy === 0 && result.log === result.checkpointed && walBytes() > workerData.walLimitBytes) {
    [result] = db.pragma('wal_checkpoint(TRUNCATE)');
  }
  if (!healthy) {
    healthy = true;
    parentPort.postMessage({ kind: 'healthy' });
  }
  // The WAL's length for the server's thread to read at any time, without a message.
  Atomics.store(workerData.walFrames, 0, result.log);
  if (report) parentPort.postMessage({ kind: 'checkpoint', result });
}
parentPort.on('message', (message) => {
  if (message === 'report') report = true;
  if (message !== 'stop') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
timer = setTimeout(checkpoint, workerData.intervalMs);
`;

type WorkerMessage = { kind: 'healthy' } | { kind: 'checkpoint'; result: CheckpointResult };

/**
 * Moves checkpoints of the WAL database at `file` to a worker thread. `sqlite` is the
 * application's own connection: its automatic checkpoints are turned down to a safety net.
 */
export function startBackgroundCheckpoints(
  sqlite: { pragma(source: string, options?: { simple: boolean }): unknown; readonly open: boolean },
  file: string,
  options: CheckpointOptions = {},
): BackgroundCheckpoints {
  const { intervalMs = 100, fallbackPages = 10_000, onError, onRecovered, restartDelayMs = 100, maxRestartDelayMs = 30_000 } = options;
  const listeners: ((result: CheckpointResult) => void)[] = [];
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  let stopping = false;
  let failures = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let current: { worker: Worker; exited: Promise<void> } | undefined;
  // Frames in the WAL at the worker's last checkpoint, written by the worker; -1 until then.
  const walFrames = new Int32Array(new SharedArrayBuffer(4)).fill(-1);
  const frameBytes = Number(sqlite.pragma('page_size', { simple: true })) + 24;

  function start() {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, driver, intervalMs, walLimitBytes: WAL_SIZE_LIMIT_BYTES, walFrames },
      // It holds a connection and a timer: a small heap keeps it from adding to the server's RSS.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
    });
    // Checkpoints alone must not keep the process alive.
    worker.unref();
    if (listeners.length > 0) worker.postMessage('report');
    sqlite.pragma(`wal_autocheckpoint = ${fallbackPages}`);
    // Nor does a commit that starts the WAL over cut the file back: that ftruncate would run on
    // the server's thread (milliseconds where freed blocks are discarded) and the next commits
    // would allocate the blocks again. The worker cuts an oversized WAL once writes pause.
    sqlite.pragma('journal_size_limit = -1');
    let failure: Error | undefined;
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', (code) => {
        Atomics.store(walFrames, 0, -1);
        resolve();
        if (stopping) return;
        // Without the worker, the main connection checkpoints as SQLite would by default
        // until the worker is back.
        if (sqlite.open) {
          sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
          sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
        }
        const delay = Math.min(maxRestartDelayMs, restartDelayMs * 2 ** failures);
        failures++;
        onError?.(failure ?? new Error(`The checkpoint worker exited with code ${code}`), delay, failures);
        restartTimer = setTimeout(() => {
          restartTimer = undefined;
          if (!stopping && sqlite.open) start();
        }, delay);
        restartTimer.unref();
      }),
    );
    worker.on('message', (message: WorkerMessage) => {
      // A worker that checkpointed once is working: the next failure starts the backoff afresh.
      if (message.kind === 'healthy') {
        if (failures > 0) onRecovered?.(failures);
        failures = 0;
      } else for (const listener of listeners) listener(message.result);
    });
    worker.on('error', (error) => (failure = error));
    current = { worker, exited };
  }

  start();
  return {
    onCheckpoint(listener) {
      if (listeners.length === 0) current?.worker.postMessage('report');
      listeners.push(listener);
    },
    walBytes() {
      const frames = Atomics.load(walFrames, 0);
      return frames < 0 ? undefined : frames * frameBytes;
    },
    async stop() {
      stopping = true;
      clearTimeout(restartTimer);
      current?.worker.postMessage('stop');
      await current?.exited;
    },
  };
}

/**
 * The log lines for a failing worker: its first failure in a row as an error, then nothing until
 * it checkpoints again (one info line with the count). A full disk fails every restart, and its
 * cause is logged once per episode, not every backoff step (the 503s log theirs the same way).
 */
export function checkpointFailureLog(logger: {
  error(record: Record<string, unknown>): void;
  info(record: Record<string, unknown>): void;
}): Pick<CheckpointOptions, 'onError' | 'onRecovered'> {
  return {
    onError(error, restartInMs, failuresInARow) {
      if (failuresInARow === 1)
        logger.error({ msg: 'Checkpoint worker failed; the server checkpoints in-line until it restarts', error: error.message, restartInMs });
    },
    onRecovered(failures) {
      logger.info({ msg: 'Checkpoint worker recovered', failures });
    },
  };
}
