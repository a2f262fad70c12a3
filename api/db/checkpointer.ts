// WAL checkpoints off the event loop. By default SQLite checkpoints inside whichever commit
// pushes the WAL past 1,000 pages: that commit then copies pages into the database file and
// fsyncs both files while every request waits behind it. Under quote load that was several
// times a second, and the main cause of the quote route's p99 (docs/decisions/008-quote-path-profile.md).
// Here a worker thread, on its own connection, runs PASSIVE checkpoints on a timer instead:
// they never block a writer, and the fsyncs happen on another thread.
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
  onError?: (error: Error) => void;
}

/** What SQLite's default would do: restored on the main connection if the worker fails. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// Plain CommonJS evaluated as the worker, so it runs the same from the sources (tsx, Vitest) and
// from the production bundle, with no second entry point to build or locate.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
let timer;
// Results are posted only once someone listens (tests, diagnostics): not ten idle messages a second.
let report = false;
function checkpoint() {
  const [result] = db.pragma('wal_checkpoint(PASSIVE)');
  if (report) parentPort.postMessage(result);
  timer = setTimeout(checkpoint, workerData.intervalMs);
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

/**
 * Moves checkpoints of the WAL database at `file` to a worker thread. `sqlite` is the
 * application's own connection: its automatic checkpoints are turned down to a safety net.
 */
export function startBackgroundCheckpoints(
  sqlite: { pragma(source: string): unknown; readonly open: boolean },
  file: string,
  options: CheckpointOptions = {},
): BackgroundCheckpoints {
  const { intervalMs = 100, fallbackPages = 10_000, onError } = options;
  const listeners: ((result: CheckpointResult) => void)[] = [];
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, driver, intervalMs },
    // It holds a connection and a timer: a small heap keeps it from adding to the server's RSS.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 },
  });
  // Checkpoints alone must not keep the process alive.
  worker.unref();
  sqlite.pragma(`wal_autocheckpoint = ${fallbackPages}`);

  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (result: CheckpointResult) => listeners.forEach((listener) => listener(result)));
  worker.on('error', (error) => onError?.(error));
  void exited.then(() => {
    // Without the worker, the main connection checkpoints as SQLite would by default.
    if (!stopping && sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT}`);
  });

  return {
    onCheckpoint(listener) {
      if (listeners.length === 0) worker.postMessage('report');
      listeners.push(listener);
    },
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
