// The uploads folder's part of `npm run backup` (docs/operations.md): every stored photo and
// signature copied beside the database's copy. Files are written once under a random key and never
// changed, so a file already in the destination is skipped and a second backup into the same folder
// copies only what is new. Partial files of uploads in progress are left out. Run after the
// database's copy: an upload stores its file before its row, so every row in that copy finds its file.
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export async function backupUploads(source: string, destination: string): Promise<{ copied: number; kept: number }> {
  let copied = 0;
  let kept = 0;
  const entries = await readdir(source, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const folder of entries.filter((e) => e.isDirectory() && !e.name.startsWith('.'))) {
    const from = path.join(source, folder.name);
    const to = path.join(destination, folder.name);
    await mkdir(to, { recursive: true });
    for (const file of (await readdir(from, { withFileTypes: true })).filter((e) => e.isFile())) {
      const target = path.join(to, file.name);
      if (
        await stat(target).then(
          () => true,
          () => false,
        )
      ) {
        kept += 1;
        continue;
      }
      await copyFile(path.join(from, file.name), target);
      copied += 1;
    }
  }
  return { copied, kept };
}
