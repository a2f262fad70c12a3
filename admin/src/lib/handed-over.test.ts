import { expect, it } from 'vitest';
import { handedOverReads } from './handed-over';

it('hands a started read over once, starts none twice while it waits, and leaves a refusal to whoever takes it', async () => {
  const reads = handedOverReads<string, number>();
  let calls = 0;
  const first = reads.start('a', async () => ++calls);
  expect(reads.start('a', async () => ++calls)).toBeUndefined();
  expect(calls).toBe(1);
  expect(reads.take('a')).toBe(first);
  expect(reads.take('a')).toBeUndefined();
  // Taken, a later one starts afresh.
  expect(await reads.start('a', async () => ++calls)).toBe(2);
  // A refusal nobody has taken yet is no unhandled rejection; the one who takes it sees it.
  reads.start('b', () => Promise.reject(new Error('refused')));
  await new Promise((resolve) => setTimeout(resolve, 0));
  await expect(reads.take('b')).rejects.toThrow('refused');
});
