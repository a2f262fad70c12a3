// The uploads' backup: every stored file is copied, partial uploads are not, and a second backup
// into the same folder copies only what is new. A restored folder serves the files again.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { diskBlobStore, newBlobKey } from './blob-store';
import { backupUploads } from './files-backup';

const files = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name)
    .sort();

describe('the uploads’ backup', () => {
  it('copies every stored file once, leaves partial uploads out, and the copy serves them', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'uploads-'));
    const store = diskBlobStore(root);
    const keys = [newBlobKey(), newBlobKey()];
    for (const key of keys) await store.put(key, Readable.from([Buffer.from(`photo ${key}`)]), 'image/jpeg');
    // An upload in progress: its partial file is not a photo yet.
    const stalled = new Readable({ read() {} });
    stalled.push(Buffer.from('half a photo'));
    void store.put(newBlobKey(), stalled, 'image/jpeg').catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 20));

    const backup = mkdtempSync(path.join(tmpdir(), 'uploads-backup-'));
    expect(await backupUploads(root, backup)).toEqual({ copied: 2, kept: 0 });
    expect(files(backup)).toEqual([...keys].sort());
    const third = newBlobKey();
    await store.put(third, Readable.from([Buffer.from('later')]), 'image/jpeg');
    expect(await backupUploads(root, backup)).toEqual({ copied: 1, kept: 2 });

    const restored = diskBlobStore(backup);
    const blob = await restored.get(keys[0]);
    expect(blob?.size).toBe(`photo ${keys[0]}`.length);
    expect(readFileSync(path.join(backup, keys[0].slice(0, 2), keys[0]), 'utf8')).toBe(`photo ${keys[0]}`);
    stalled.destroy(new Error('aborted'));
  });

  it('copies nothing from a folder that does not exist yet', async () => {
    expect(await backupUploads(path.join(tmpdir(), 'no-such-uploads-folder'), mkdtempSync(path.join(tmpdir(), 'b-')))).toEqual({ copied: 0, kept: 0 });
  });
});
