import { describe, expect, it } from 'vitest';
import { createLiveHub, MAX_STREAM_MS, sseFrame } from './live';

describe('the live hub', () => {
  it('frames and encodes a change once: every stream of the job is given the same bytes, and other jobs none', () => {
    const hub = createLiveHub({ total: 5000, perAddress: 20 });
    const received: Uint8Array[][] = [[], [], []];
    received.forEach((frames, i) => {
      hub.join(i < 2 ? 1 : 2, `127.0.1.${i + 1}`, { send: (frame) => frames.push(frame), close: () => {} });
    });
    expect(hub.publish(1, 'job', '{"status":"on_the_way"}')).toBe(2);
    expect(received[0]).toHaveLength(1);
    expect(received[1][0]).toBe(received[0][0]);
    expect(received[2]).toEqual([]);
    expect(new TextDecoder().decode(received[0][0])).toBe('event: job\ndata: {"status":"on_the_way"}\n\n');
  });

  it('frames each line of the data as its own data field, as an EventSource reads it', () => {
    expect(new TextDecoder().decode(sseFrame('job', 'a\nb\r\nc'))).toBe('event: job\ndata: a\ndata: b\ndata: c\n\n');
  });
});

describe('the live hub’s ends', () => {
  const stream = (closed: string[], name: string) => ({ send: () => {}, close: () => closed.push(name) });

  it('ends every stream of a job at once (its job finished), and no other job’s', () => {
    const hub = createLiveHub({ total: 10, perAddress: 10 });
    const closed: string[] = [];
    hub.join(1, 'a', stream(closed, 'one-a'));
    hub.join(1, 'b', stream(closed, 'one-b'));
    hub.join(2, 'a', stream(closed, 'two'));
    expect(hub.closeJob(1)).toBe(2);
    expect(closed).toEqual(['one-a', 'one-b']);
  });

  it('ends a stream once it has been open for its maximum lifetime', () => {
    let now = 0;
    const hub = createLiveHub({ total: 10, perAddress: 10 }, { now: () => now, maxLifetimeMs: MAX_STREAM_MS });
    const closed: string[] = [];
    hub.join(1, 'a', stream(closed, 'first'));
    now = 60_000;
    hub.join(1, 'a', stream(closed, 'second'));
    now = MAX_STREAM_MS - 1;
    expect(hub.sweep()).toBe(0);
    now = MAX_STREAM_MS;
    expect(hub.sweep()).toBe(1);
    expect(closed).toEqual(['first']);
    hub.closeAll();
  });

  it('never admits more than its total, which the server may lower to half its connections', () => {
    const hub = createLiveHub({ total: 5000, perAddress: 20 });
    hub.capTotal(3);
    expect(hub.total).toBe(3);
    hub.capTotal(10);
    expect(hub.total).toBe(3);
    const admitted = [1, 2, 3, 4].map((i) => hub.join(1, `127.0.0.${i}`, { send: () => {}, close: () => {} }).ok);
    expect(admitted).toEqual([true, true, true, false]);
    hub.closeAll();
  });
});
