// Pure helpers of the bookings bench (scripts/bench/bookings.ts): a client address for each open
// status stream, the file descriptors those streams need, percentiles, and reading the events
// out of a Server-Sent Events body as it arrives.
import { RESERVED_DESCRIPTORS } from '../../api/platform/http/connection-cap';

/**
 * `count` distinct loopback addresses, 127.0.1.1 onwards (a final octet of 1–254, never
 * 127.0.0.x, where the quote load and the driver come from). On Linux every 127.x.y.z reaches a
 * server bound on 127.0.0.1, so each stream can be its own client address for the server's
 * per-address cap.
 */
export function loopbackAddresses(count: number): string[] {
  const perBlock = 254;
  // 127.0.1.0 up to 127.255.255.255: 65,535 blocks of 254.
  const max = (256 * 256 - 1) * perBlock;
  if (!Number.isInteger(count) || count < 0 || count > max) throw new RangeError(`between 0 and ${max} loopback addresses, not ${count}`);
  const addresses: string[] = [];
  for (let i = 0; i < count; i++) {
    const block = Math.floor(i / perBlock) + 1;
    addresses.push(`127.${block >> 8}.${block & 255}.${(i % perBlock) + 1}`);
  }
  return addresses;
}

/**
 * Descriptors a process needs to hold `sockets` connections at once: the server keeps
 * RESERVED_DESCRIPTORS for its database, WAL, log and replication beyond its connection cap
 * (api/platform/http/connection-cap.ts), and either process needs a few more of its own.
 */
export const descriptorsNeeded = (sockets: number) => sockets + RESERVED_DESCRIPTORS + 64;

/** The `p`-quantile (0 < p ≤ 1) of ascending `sorted` values, by nearest rank; NaN when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))];
}

export interface SseEvent {
  event: string;
  data: string;
}

/**
 * The complete events in `buffered` (text received so far) and what is left after the last one,
 * to prepend to the next chunk. Comment lines (heartbeats) are skipped; an event without an
 * `event:` field is a `message`, as EventSource has it.
 */
export function readSseEvents(buffered: string): { events: SseEvent[]; rest: string } {
  const blocks = buffered.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: SseEvent[] = [];
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length > 0) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}
