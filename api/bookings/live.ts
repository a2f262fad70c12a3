// Live job pages (docs/product.md, "Bookings"): every open status page holds a Server-Sent Events
// stream, and a change to its job is sent to each of them once, as one text computed once.
// Streams are capped per client address and in total (at most half the server's connections, so
// requests and /healthz always have the other half); no cap per job below the total, since one
// job's page may be open on many screens. A stream ends when its job finishes (nothing more will
// change), after MAX_STREAM_MS (the page's EventSource reconnects), when its client goes (a
// heartbeat that cannot be written) and on shutdown. In memory, per process.

export interface LiveLimits {
  /** Open streams in all: at most half of MAX_CONNECTIONS (api/platform/config.ts). */
  total: number;
  perAddress: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { total: 5_000, perAddress: 20 };

/** A stream is ended after this long: its page reconnects, so a stream held open for ever holds nobody's page. */
export const MAX_STREAM_MS = 2 * 60 * 60_000;
/** How often streams past their lifetime are looked for. */
const SWEEP_MS = 60_000;

export interface LiveOptions {
  /** The clock (ms): tests move it. */
  now?: () => number;
  maxLifetimeMs?: number;
}

export interface LiveStream {
  /** Writes one event, framed and encoded already: every stream of a job is given the same bytes. */
  send(frame: Uint8Array): void;
  /** Ends the stream (shutdown). */
  close(): void;
}

const encoder = new TextEncoder();

/** One Server-Sent Event as it goes on the wire, each line of `data` a `data:` field (as Hono's writeSSE frames it). */
export function sseFrame(event: string, data: string): Uint8Array {
  return encoder.encode(
    `event: ${event}\n${data
      .split(/\r\n|\r|\n/)
      .map((line) => `data: ${line}`)
      .join('\n')}\n\n`,
  );
}

/**
 * What a stream follows: a job by its id, for the motorist's status page (the default audience) or
 * the driver's page, each sent its own view of the job; or a key of the dispatch's own streams (a
 * company's boards, a person's own jobs: api/dispatch/live.ts). One hub holds them all, so one
 * total cap keeps them all below the connection cap.
 */
export type LiveKey = number | string;
export type Audience = 'motorist' | 'driver';
/** A driver's streams of a job are kept under the job's id negated (ids are positive): one map, no key built per change. */
const keyOf = (jobId: LiveKey, audience: Audience): LiveKey => (audience === 'driver' && typeof jobId === 'number' ? -jobId : jobId);

export type Admission = { ok: true; leave: () => void } | { ok: false; reason: 'total' | 'address' };

export function createLiveHub(initialLimits: LiveLimits = DEFAULT_LIVE_LIMITS, options: LiveOptions = {}) {
  const limits = { ...initialLimits };
  const now = options.now ?? Date.now;
  const maxLifetimeMs = options.maxLifetimeMs ?? MAX_STREAM_MS;
  const byJob = new Map<LiveKey, Set<LiveStream>>();
  const perAddress = new Map<string, number>();
  /** Every open stream with when it opened (in opening order, so the oldest come first). */
  const all = new Map<LiveStream, number>();
  let closed = false;
  let sweeper: ReturnType<typeof setInterval> | undefined;

  /** Ends the streams opened `maxLifetimeMs` or more before `at`; how many. */
  function sweep(at: number = now()): number {
    const old: LiveStream[] = [];
    for (const [stream, openedAt] of all) {
      if (at - openedAt < maxLifetimeMs) break;
      old.push(stream);
    }
    for (const stream of old) stream.close();
    return old.length;
  }

  return {
    /** Counts a stream of `jobId` from `address` (its group: api/platform/http/connection-guard.ts) in, if the caps allow it. */
    join(jobId: LiveKey, address: string, stream: LiveStream, audience: Audience = 'motorist'): Admission {
      const key = keyOf(jobId, audience);
      if (closed || all.size >= limits.total) return { ok: false, reason: 'total' };
      const fromAddress = perAddress.get(address) ?? 0;
      if (fromAddress >= limits.perAddress) return { ok: false, reason: 'address' };
      perAddress.set(address, fromAddress + 1);
      all.set(stream, now());
      if (!sweeper) {
        sweeper = setInterval(() => sweep(), SWEEP_MS);
        sweeper.unref();
      }
      let streams = byJob.get(key);
      if (!streams) byJob.set(key, (streams = new Set()));
      streams.add(stream);
      let left = false;
      return {
        ok: true,
        leave() {
          if (left) return;
          left = true;
          all.delete(stream);
          streams.delete(stream);
          if (streams.size === 0 && byJob.get(key) === streams) byJob.delete(key);
          const n = (perAddress.get(address) ?? 1) - 1;
          if (n <= 0) perAddress.delete(address);
          else perAddress.set(address, n);
        },
      };
    },
    /**
     * Sends `data` to every open stream of the job, framed and encoded once: with a job's page open
     * 2,000 times, a copy of the bytes per stream, each alive until its socket took it, filled the
     * young generation and made its collections most of the change's cost (docs/budgets.md).
     */
    publish(jobId: LiveKey, event: string, data: string, audience: Audience = 'motorist'): number {
      const streams = byJob.get(keyOf(jobId, audience));
      if (!streams) return 0;
      const frame = sseFrame(event, data);
      for (const stream of streams) stream.send(frame);
      return streams.size;
    },
    /** Whether anyone is watching the job (a change's view is built only then). */
    watched: (jobId: LiveKey, audience: Audience = 'motorist') => (byJob.get(keyOf(jobId, audience))?.size ?? 0) > 0,
    /** Ends every stream of the job's pages of one audience: it has finished, and those pages have been sent their last state. */
    closeJob(jobId: LiveKey, audience: Audience = 'motorist'): number {
      const streams = [...(byJob.get(keyOf(jobId, audience)) ?? [])];
      for (const stream of streams) stream.close();
      return streams.length;
    },
    sweep,
    /** Lowers the total cap (never raises it): the server's own connection cap may be below the configured one. */
    capTotal(total: number) {
      limits.total = Math.max(1, Math.min(limits.total, total));
    },
    get total() {
      return limits.total;
    },
    get size() {
      return all.size;
    },
    /** Ends every stream and refuses new ones: on SIGTERM, before the server drains. */
    closeAll() {
      closed = true;
      if (sweeper) clearInterval(sweeper);
      for (const stream of [...all.keys()]) stream.close();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
