import { describe, expect, it } from 'vitest';
import { RESERVED_DESCRIPTORS } from '../../api/platform/http/connection-cap';
import { descriptorsNeeded, loopbackAddresses, percentile, readSseEvents } from './stream-helpers';

describe('loopbackAddresses', () => {
  it('gives each stream its own 127.x.y.z, never 127.0.0.x and never a final octet of 0 or 255', () => {
    const addresses = loopbackAddresses(2000);
    expect(new Set(addresses).size).toBe(2000);
    expect(addresses.slice(0, 2)).toEqual(['127.0.1.1', '127.0.1.2']);
    expect(addresses[253]).toBe('127.0.1.254');
    expect(addresses[254]).toBe('127.0.2.1');
    for (const address of addresses) {
      const octets = address.split('.').map(Number);
      expect(octets[0]).toBe(127);
      expect(octets.every((o) => Number.isInteger(o) && o >= 0 && o <= 255)).toBe(true);
      expect(octets[3]).toBeGreaterThanOrEqual(1);
      expect(octets[3]).toBeLessThanOrEqual(254);
      expect(address.startsWith('127.0.0.')).toBe(false);
    }
  });

  it('carries into the second octet past 255 blocks and refuses more than 127/8 holds', () => {
    const addresses = loopbackAddresses(254 * 256);
    expect(addresses.at(-1)).toBe('127.1.0.254');
    expect(new Set(addresses).size).toBe(addresses.length);
    expect(loopbackAddresses(0)).toEqual([]);
    expect(() => loopbackAddresses(-1)).toThrow(RangeError);
    expect(() => loopbackAddresses(65_535 * 254 + 1)).toThrow(RangeError);
  });
});

describe('descriptorsNeeded', () => {
  it('adds the server’s reserved descriptors to the sockets held', () => {
    expect(descriptorsNeeded(2010)).toBeGreaterThan(2010 + RESERVED_DESCRIPTORS);
  });
});

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 1)).toBe(100);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([1, 2, 3], 0.001)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe('readSseEvents', () => {
  it('reads the complete events, skips heartbeats and keeps a partial one for the next chunk', () => {
    const first = readSseEvents('event: job\ndata: {"status":"accepted"}\n\n: heartbeat\n\nevent: job\ndata: {"sta');
    expect(first.events).toEqual([{ event: 'job', data: '{"status":"accepted"}' }]);
    const second = readSseEvents(`${first.rest}tus":"on_the_way"}\n\n`);
    expect(second.events).toEqual([{ event: 'job', data: '{"status":"on_the_way"}' }]);
    expect(second.rest).toBe('');
  });

  it('joins multi-line data, reads CRLF, and names an event without a type a message', () => {
    expect(readSseEvents('data: a\r\ndata: b\r\n\r\nevent:x\ndata:c\n\n').events).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'x', data: 'c' },
    ]);
  });
});
