// `npm run backup [destination] [--full-check]`: a consistent, checked copy of DATABASE_PATH while
// the server runs, then the photos and signatures of UPLOADS_PATH (beside the database by default)
// into a folder beside the copy, `<copy>-uploads`, unless S3_BUCKET is set: the bucket is then their copy. Default destination ./data/backups/recovery-YYYYMMDD-HHMMSS.db; prints where it
// went. The copy is checked with `quick_check` (page structure, fast); `--full-check` runs
// `integrity_check` instead, which also matches every index to its table and takes far longer.
// It reads DATABASE_PATH alone, not the server's configuration: a backup must run where the
// server's secrets are not set (NODE_ENV=production without SESSION_SECRET) and write nothing
// but the copy.
import { parseArgs } from 'node:util';
import { backupDatabase, defaultBackupPath } from '../api/platform/db/backup';
import path from 'node:path';
import { DEFAULT_DATABASE_PATH } from '../api/platform/config';
import { backupUploads } from '../api/proof/files-backup';

const databasePath = process.env.DATABASE_PATH || DEFAULT_DATABASE_PATH;
try {
  const { values, positionals } = parseArgs({ options: { 'full-check': { type: 'boolean', default: false } }, allowPositionals: true });
  if (positionals.length > 1) throw new Error(`Expected at most one destination, got ${positionals.length}`);
  const { destination, pages, check, copyMs, checkMs } = await backupDatabase(databasePath, positionals[0] ?? defaultBackupPath(new Date()), {
    check: values['full-check'] ? 'integrity_check' : 'quick_check',
  });
  const seconds = (ms: number) => (ms / 1000).toFixed(1);
  console.log(`Backed up ${databasePath} (${pages} pages) to ${destination}: copy ${seconds(copyMs)} s, ${check} ok in ${seconds(checkMs)} s`);
  if (process.env.S3_BUCKET?.trim()) {
    console.log(`Photos and signatures are in the bucket ${process.env.S3_BUCKET.trim()}: its versioning or replication is their copy`);
  } else {
    const uploads = process.env.UPLOADS_PATH || path.join(path.dirname(path.resolve(databasePath)), 'uploads');
    const into = `${destination.replace(/\.db$/, '')}-uploads`;
    const { copied, kept } = await backupUploads(uploads, into);
    console.log(`Copied ${copied} photos and signatures from ${uploads} to ${into} (${kept} there already)`);
  }
} catch (err) {
  process.stderr.write(`Backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
