// Runs the real server (api/server.ts) as a child process on loopback, for the benchmarks and
// the reliability tests. `node --import tsx` rather than the tsx CLI: the CLI wraps the server in
// a second node process, so its pid would not be the one receiving signals or holding the memory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const HOST = '127.0.0.1';
/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/** A port nothing listens on right now (the kernel picks it; released before we return). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, HOST, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The node flags `npm start` gives the production bundle (package.json is the one place they are
 * written), so the bundle is measured as it runs in production.
 */
export function startScriptNodeFlags(startScript?: string, root = REPO_ROOT): string[] {
  const script = startScript ?? (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const match = /\bnode((?: --[\w-]+(?:=\S+)?)*) dist\/server\.mjs\b/.exec(script);
  if (!match) throw new Error(`package.json's start script does not run dist/server.mjs with node: ${script}`);
  return match[1].trim().split(' ').filter(Boolean);
}

export function tempDatabasePath(label = 'bench'): string {
  return path.join(mkdtempSync(path.join(tmpdir(), `recovery-${label}-`)), 'recovery.db');
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  databasePath: string;
  /** Everything the process wrote to stderr so far (startup failures, crashes). */
  stderr(): string;
  /** Resolves with the exit code (null when killed by a signal) once the process has exited. */
  exited: Promise<number | null>;
  /** Resident set size in bytes, read from /proc (Linux); undefined once the process is gone. */
  rssBytes(): number | undefined;
  /** CPU time (user + system, every thread) used so far, in ms, read from /proc (Linux); undefined once the process is gone. */
  cpuMs(): number | undefined;
  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  stop(graceMs?: number): Promise<number | null>;
}

export interface SpawnOptions {
  /** A script relative to `root`; default the real server (its sources, or TEST_SERVER_SCRIPT when set). */
  script?: string;
  /** The checkout the script is run from (its working directory and package.json); default this one. */
  root?: string;
  databasePath?: string;
  env?: Record<string, string>;
  /** How long to wait for the first healthy answer (60 s: a start takes a second on a quiet machine, far longer on a loaded one). */
  readyTimeoutMs?: number;
  /** Path polled until it answers 200. */
  readyPath?: string;
  /**
   * 'pipe': the server's stdout is `child.stdout`, for the caller to read or close; a stream (say
   * the stdin of a process that never reads) is handed to the server as its stdout. Default 'ignore'.
   */
  stdout?: 'ignore' | 'pipe' | Writable;
  /** Node flags: for the TypeScript source, all of them; a built bundle gets npm start's and then these. */
  nodeFlags?: string[];
  /** Run as this user and group (tests started as root, where file permissions do not apply). */
  uid?: number;
  gid?: number;
}

export async function spawnServer(options: SpawnOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const databasePath = options.databasePath ?? tempDatabasePath();
  const url = `http://${HOST}:${port}`;
  // Under `npm test` the suite's servers run the bundle that command has just built (vitest.config.ts
  // names it in TEST_SERVER_SCRIPT): half the CPU of a start through tsx, for the same code.
  const script = options.script ?? process.env.TEST_SERVER_SCRIPT ?? 'api/server.ts';
  // A built bundle (dist/server.mjs, what `npm start` runs) needs no TypeScript loader, and gets
  // npm start's node flags.
  const root = options.root ?? REPO_ROOT;
  const args = script.endsWith('.mjs')
    ? [...startScriptNodeFlags(undefined, root), ...(options.nodeFlags ?? []), script]
    : [...(options.nodeFlags ?? []), '--import', 'tsx', script];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      HOST,
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_PATH: databasePath,
      QUOTE_RATE_LIMIT: '0',
      LOG_LEVEL: 'silent',
      ...options.env,
    },
    stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
  if (child.pid === undefined) throw new Error('could not spawn the server');
  const pid = child.pid;
  // A bench or test that dies half-way must not leave a server holding a port and a database.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      process.off('exit', killOnExit);
      exitCode = code;
      resolve(code);
    }),
  );

  const server: ServerProcess = {
    child,
    pid,
    port,
    url,
    databasePath,
    stderr: () => stderr,
    exited,
    rssBytes() {
      if (exitCode !== undefined) return undefined;
      try {
        const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
        return match ? Number(match[1]) * 1024 : undefined;
      } catch {
        return undefined;
      }
    },
    cpuMs() {
      if (exitCode !== undefined) return undefined;
      try {
        // Fields after the command name (which may hold spaces, so split after its ")"): utime and stime are the 12th and 13th.
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
      } catch {
        return undefined;
      }
    },
    async stop(graceMs = 5000) {
      if (exitCode !== undefined) return exitCode;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  const readyUrl = `${url}${options.readyPath ?? '/healthz'}`;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited (${exitCode}) before answering:\n${stderr}`);
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop(1000);
      throw new Error(`server did not answer ${readyUrl} within the timeout:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Command lines of live processes other than this one that mention `text` (Linux /proc): a server's children left behind. */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      if (command.includes(text)) found.push(command);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
