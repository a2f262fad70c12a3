// `npm run backup [destination]`: a consistent, integrity-checked copy of DATABASE_PATH while the
// server runs. Default destination ./data/backups/recovery-YYYYMMDD-HHMMSS.db; prints where it went.
// It reads DATABASE_PATH alone, not the server's configuration: a backup must run where the
// server's secrets are not set (NODE_ENV=production without SESSION_SECRET) and write nothing
// but the copy.
import { backupDatabase, defaultBackupPath } from '../api/db/backup';
import { DEFAULT_DATABASE_PATH } from '../api/env';

const databasePath = process.env.DATABASE_PATH || DEFAULT_DATABASE_PATH;
try {
  const { destination, pages, copyMs, checkMs } = await backupDatabase(databasePath, process.argv[2] ?? defaultBackupPath(new Date()));
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`Backed up ${databasePath} (${pages} pages) to ${destination}: copy ${seconds(copyMs)} s, integrity_check ok in ${seconds(checkMs)} s`);
} catch (err) {
  process.stderr.write(`Backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
