// Connections per client address (docs/security.md, "Connections"): one address may hold only a
// share of the server's connections, so a few hosts holding sockets open (idle, or streaming)
// cannot shut everyone else out, `/healthz` included. IPv6 clients are counted by their /64: one
// host is handed a whole /64 and can pick a fresh address in it for every socket.
import { isIPv6 } from 'node:net';

/** The key a client address is counted under: an IPv4 address as it is, an IPv6 address by its /64. */
export function addressGroup(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head, tail = ''] = address.split('%')[0].toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) lies in the last 32 bits, never in the first 64.
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}

export interface ConnectionShares {
  /** Connections one address may hold at once; past it its new connections are closed at once. */
  perAddress: number;
  /** Past this many, an address's idle connections are closed after `idleMs` rather than kept alive. */
  idleShare: number;
  idleMs: number;
}

/** The per-address cap from the server's: a tenth of it, at least 32, at most 256. */
export const defaultPerAddress = (maxConnections: number) => Math.min(maxConnections, Math.max(32, Math.min(256, Math.floor(maxConnections / 10))));

/** How long an idle connection is kept once its address holds more than its idle share. */
export const IDLE_OVER_SHARE_MS = 5_000;

export function connectionShares(perAddress: number): ConnectionShares {
  return { perAddress, idleShare: Math.max(1, Math.floor(perAddress / 2)), idleMs: IDLE_OVER_SHARE_MS };
}

/** What the guard needs to know of one open connection. */
export interface GuardedConnection {
  group: string;
  /** Responses not finished yet: a connection with none is idle. */
  open: readonly unknown[];
  /** performance.now() when it last fell idle (or was accepted). */
  idleSince: number;
}

export function createConnectionGuard(shares: ConnectionShares) {
  const counts = new Map<string, number>();
  return {
    /** Counts a new connection of `group` in; false (and nothing counted) when its address holds its share already. */
    admit(group: string): boolean {
      const n = counts.get(group) ?? 0;
      if (n >= shares.perAddress) return false;
      counts.set(group, n + 1);
      return true;
    },
    release(group: string) {
      const n = (counts.get(group) ?? 1) - 1;
      if (n <= 0) counts.delete(group);
      else counts.set(group, n);
    },
    held: (group: string) => counts.get(group) ?? 0,
    /** Whether any address holds more than its idle share (only then is there anything to sweep). */
    anyOverShare(): boolean {
      for (const n of counts.values()) if (n > shares.idleShare) return true;
      return false;
    },
    /**
     * The idle connections to close now: those of an address over its idle share, idle for
     * `idleMs` or more. A connection with a response in progress (a live stream too) is never one.
     */
    idleToClose<K>(connections: Iterable<[K, GuardedConnection]>, now: number): K[] {
      const close: K[] = [];
      for (const [key, connection] of connections) {
        if (connection.open.length > 0 || now - connection.idleSince < shares.idleMs) continue;
        if ((counts.get(connection.group) ?? 0) > shares.idleShare) close.push(key);
      }
      return close;
    },
  };
}
