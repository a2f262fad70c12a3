// Live job pages (docs/product.md, "Bookings"): every open status page holds a Server-Sent Events
// stream, and a change to its job is sent to each of them once, as one text computed once.
// Streams are capped per client address and in total; no cap per job below the total, since one
// job's page may be open on many screens. In memory, per process.

export interface LiveLimits {
  /** Open streams in all; at least 5,000. */
  total: number;
  perAddress: number;
}

export const DEFAULT_LIVE_LIMITS: LiveLimits = { total: 10_000, perAddress: 20 };

export interface LiveStream {
  /** Writes one event, framed and encoded already: every stream of a job is given the same bytes. */
  send(frame: Uint8Array): void;
  /** Ends the stream (shutdown). */
  close(): void;
}

const encoder = new TextEncoder();

/** One Server-Sent Event as it goes on the wire, each line of `data` a `data:` field (as Hono's writeSSE frames it). */
export function sseFrame(event: string, data: string): Uint8Array {
  return encoder.encode(`event: ${event}\n${data.split(/\r\n|\r|\n/).map((line) => `data: ${line}`).join('\n')}\n\n`);
}

export type Admission = { ok: true; leave: () => void } | { ok: false; reason: 'total' | 'address' };

export function createLiveHub(limits: LiveLimits = DEFAULT_LIVE_LIMITS) {
  const byJob = new Map<number, Set<LiveStream>>();
  const perAddress = new Map<string, number>();
  const all = new Set<LiveStream>();
  let closed = false;

  return {
    /** Counts a stream of `jobId` from `address` in, if the caps allow it. */
    join(jobId: number, address: string, stream: LiveStream): Admission {
      if (closed || all.size >= limits.total) return { ok: false, reason: 'total' };
      const fromAddress = perAddress.get(address) ?? 0;
      if (fromAddress >= limits.perAddress) return { ok: false, reason: 'address' };
      perAddress.set(address, fromAddress + 1);
      all.add(stream);
      let streams = byJob.get(jobId);
      if (!streams) byJob.set(jobId, (streams = new Set()));
      streams.add(stream);
      let left = false;
      return {
        ok: true,
        leave() {
          if (left) return;
          left = true;
          all.delete(stream);
          streams.delete(stream);
          if (streams.size === 0 && byJob.get(jobId) === streams) byJob.delete(jobId);
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
    publish(jobId: number, event: string, data: string): number {
      const streams = byJob.get(jobId);
      if (!streams) return 0;
      const frame = sseFrame(event, data);
      for (const stream of streams) stream.send(frame);
      return streams.size;
    },
    /** Whether anyone is watching the job (a change's view is built only then). */
    watched: (jobId: number) => (byJob.get(jobId)?.size ?? 0) > 0,
    get size() {
      return all.size;
    },
    /** Ends every stream and refuses new ones: on SIGTERM, before the server drains. */
    closeAll() {
      closed = true;
      for (const stream of [...all]) stream.close();
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
