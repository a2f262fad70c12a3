import { describe, expect, it } from 'vitest';
import { createLiveHub, sseFrame } from './live';

describe('the live hub', () => {
  it('frames and encodes a change once: every stream of the job is given the same bytes, and other jobs none', () => {
    const hub = createLiveHub({ total: 5000, perAddress: 20 });
    const received: Uint8Array[][] = [[], [], []];
    received.forEach((frames, i) => hub.join(i < 2 ? 1 : 2, `127.0.1.${i + 1}`, { send: (frame) => frames.push(frame), close: () => {} }));
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
