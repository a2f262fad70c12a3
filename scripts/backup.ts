// `npm run backup [destination]`: a consistent copy of DATABASE_PATH while the server runs.
// Default destination ./data/backups/recovery-YYYYMMDD-HHMMSS.db; prints where it went.
import { backupDatabase, defaultBackupPath } from '../api/db/backup';
import { ConfigError, loadConfig } from '../api/env';

try {
  const { databasePath } = loadConfig();
  const { destination, pages } = await backupDatabase(databasePath, process.argv[2] ?? defaultBackupPath(new Date()));
  console.log(`Backed up ${databasePath} (${pages} pages) to ${destination}`);
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : `Backup failed: ${err instanceof Error ? err.message : String(err)}`}\n`);
  process.exit(1);
}
