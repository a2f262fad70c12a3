// TRUST_PROXY (docs/configuration.md): which peers may tell us the client's address in
// X-Forwarded-For. Off by default: the socket's address is the client's. A hop count trusts that
// many proxies in front of the server (the socket's peer being the nearest); a list of addresses
// and CIDR ranges trusts only those peers: the header is read only when the socket's peer is one,
// and then from the right, past every trusted address, to the first address that is not.
import { BlockList, isIP } from 'node:net';

export type TrustProxy = { kind: 'off' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: BlockList; text: string };

export const TRUST_PROXY_FORMAT =
  'TRUST_PROXY must be a number of proxy hops (1–10), or the proxies’ addresses and CIDR ranges separated by commas (e.g. 127.0.0.1,10.0.0.0/8), or "loopback"';

const OFF = new Set(['', '0', 'false', 'no', 'off']);

/** Parses TRUST_PROXY; throws Error(TRUST_PROXY_FORMAT) when it is neither a count nor addresses. */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (OFF.has(text.toLowerCase())) return { kind: 'off' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10) throw new Error(TRUST_PROXY_FORMAT);
    return { kind: 'hops', hops };
  }
  const list = new BlockList();
  for (const raw of text.split(',')) {
    const entry = raw.trim();
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address, prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) throw new Error(TRUST_PROXY_FORMAT);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else {
      const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) throw new Error(TRUST_PROXY_FORMAT);
      list.addSubnet(address, bits, type);
    }
  }
  return { kind: 'addresses', list, text };
}

/** An IPv4 address as an IPv6 socket reports it (::ffff:127.0.0.1) is the IPv4 address. */
const plain = (address: string) => (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

function trusted(list: BlockList, address: string): boolean {
  const a = plain(address);
  const family = isIP(a);
  return family !== 0 && list.check(a, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The client's address given the socket's peer and the X-Forwarded-For header. Entries a client
 * wrote itself sit to the left of those our proxies added, so the walk goes from the right and
 * stops at the first address no trusted proxy vouches for.
 */
export function resolveClientAddress(trust: TrustProxy, socketAddress: string, forwardedFor: string | undefined): string {
  if (trust.kind === 'off' || !forwardedFor) return socketAddress;
  const chain = forwardedFor
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (chain.length === 0) return socketAddress;
  if (trust.kind === 'hops') return plain(chain[Math.max(0, chain.length - trust.hops)]);
  let client = socketAddress;
  for (let i = chain.length; i >= 0; i--) {
    if (!trusted(trust.list, client)) return plain(client);
    if (i === 0) break;
    client = chain[i - 1];
  }
  return plain(client);
}
