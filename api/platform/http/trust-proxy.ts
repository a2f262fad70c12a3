// TRUST_PROXY (docs/configuration.md): which peers may tell us the client's address in
// X-Forwarded-For. Off by default: the socket's address is the client's. A hop count trusts that
// many proxies in front of the server (the socket's peer being the nearest); a list of addresses
// and CIDR ranges trusts only those peers: the header is read only when the socket's peer is one,
// and then from the right, past every trusted address, to the first address that is not.
import { BlockList, isIP } from 'node:net';

export type TrustProxy = { kind: 'off' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; list: BlockList; text: string };

export const TRUST_PROXY_FORMAT =
  'TRUST_PROXY must be a number of proxy hops (1–10), or the proxies’ addresses and CIDR ranges separated by commas (e.g. 127.0.0.1,10.0.0.0/8), or "loopback"';

export const TRUST_PROXY_EVERYONE =
  'TRUST_PROXY must name only your own proxies: a range that covers every address (such as 0.0.0.0/0 or ::/0, or ranges that together cover every IPv4 or every IPv6 address) would let any client choose the address it is limited by';

const OFF = new Set(['', '0', 'false', 'no', 'off']);

const V4_MAPPED = 0xffff_0000_0000n;
const ALL_V6 = (1n << 128n) - 1n;

/** An address as a number in IPv6's space, IPv4 as its IPv4-mapped form (as BlockList matches it). */
function toBigInt(address: string, family: 4 | 6): bigint {
  if (family === 4) return V4_MAPPED + address.split('.').reduce((n, part) => (n << 8n) + BigInt(Number(part)), 0n);
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const expand = (parts: string[]) =>
    parts.flatMap((g) => (g.includes('.') ? [Number(toBigInt(g, 4) >> 16n) & 0xffff, Number(toBigInt(g, 4) & 0xffffn)].map((n) => n.toString(16)) : [g]));
  const left = expand(groups(head));
  const right = tail === undefined ? [] : expand(groups(tail));
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return all.reduce((n, g) => (n << 16n) + BigInt(parseInt(g, 16)), 0n);
}

/** Does the union of `ranges` cover every number from `from` to `to`? */
function covers(ranges: Array<[bigint, bigint]>, from: bigint, to: bigint): boolean {
  let next = from;
  for (const [start, end] of [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (start > next) return false;
    if (end >= next) next = end + 1n;
    if (next > to) return true;
  }
  return next > to;
}

/**
 * Whether the ranges trust every client of a family: every IPv4 address, or every IPv6 address
 * that is not an IPv4 one written as IPv6.
 */
function trustsEveryone(ranges: Array<[bigint, bigint]>): boolean {
  const v4 = covers(ranges, V4_MAPPED, V4_MAPPED + 0xffff_ffffn);
  const v6 = covers(ranges, 0n, V4_MAPPED - 1n) && covers(ranges, V4_MAPPED + 0x1_0000_0000n, ALL_V6);
  return v4 || v6;
}

/**
 * Parses TRUST_PROXY; throws Error(TRUST_PROXY_FORMAT) when it is neither a count nor addresses,
 * and Error(TRUST_PROXY_EVERYONE) when its ranges cover every address of a family.
 */
export function parseTrustProxy(value: string | undefined): TrustProxy {
  const text = (value ?? '').trim();
  if (OFF.has(text.toLowerCase())) return { kind: 'off' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10) throw new Error(TRUST_PROXY_FORMAT);
    return { kind: 'hops', hops };
  }
  const list = new BlockList();
  const ranges: Array<[bigint, bigint]> = [];
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
    const width = family === 4 ? 32 : 128;
    const bits = prefix === undefined ? width : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    if (!(bits >= 0 && bits <= width)) throw new Error(TRUST_PROXY_FORMAT);
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
    const size = 1n << BigInt(width - bits);
    const start = (toBigInt(address, family === 4 ? 4 : 6) - (family === 4 ? V4_MAPPED : 0n)) & ~(size - 1n);
    const first = start + (family === 4 ? V4_MAPPED : 0n);
    ranges.push([first, first + size - 1n]);
  }
  if (trustsEveryone(ranges)) throw new Error(TRUST_PROXY_EVERYONE);
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
