// The app's event emitter: listeners in the order they subscribed, each awaited, one that fails
// logged without stopping the others or the emitter's caller.
import { describe, expect, it } from 'vitest';
import { createEvents } from './events';

interface TestEvents {
  said: { word: string };
}

describe('createEvents', () => {
  it('runs the listeners one after the other, in the order they subscribed, each awaited', async () => {
    const errors: unknown[] = [];
    const events = createEvents<TestEvents>({ error: (record: unknown) => errors.push(record) });
    const heard: string[] = [];
    events.on('said', async ({ word }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      heard.push(`slow ${word}`);
    });
    events.on('said', ({ word }) => {
      heard.push(`fast ${word}`);
    });
    await events.emit('said', { word: 'one' });
    expect(heard).toEqual(['slow one', 'fast one']);
    expect(errors).toEqual([]);
  });

  it('logs a listener that throws and still runs the others; the emitter never rejects', async () => {
    const errors: Array<{ msg: string; event: string; error: string }> = [];
    const events = createEvents<TestEvents>({ error: (record: { msg: string; event: string; error: string }) => errors.push(record) });
    const heard: string[] = [];
    events.on('said', () => {
      throw new Error('broken listener');
    });
    events.on('said', async () => Promise.reject(new Error('broken later')));
    events.on('said', ({ word }) => {
      heard.push(word);
    });
    await expect(events.emit('said', { word: 'two' })).resolves.toBeUndefined();
    expect(heard).toEqual(['two']);
    expect(errors).toEqual([
      { msg: 'An event listener failed', event: 'said', error: 'broken listener' },
      { msg: 'An event listener failed', event: 'said', error: 'broken later' },
    ]);
  });

  it('stops calling a listener once it unsubscribed, and calls nothing for an event nobody hears', async () => {
    const events = createEvents<TestEvents>({ error: () => {} });
    const heard: string[] = [];
    const off = events.on('said', ({ word }) => {
      heard.push(word);
    });
    await events.emit('said', { word: 'three' });
    off();
    await events.emit('said', { word: 'four' });
    expect(heard).toEqual(['three']);
  });
});
