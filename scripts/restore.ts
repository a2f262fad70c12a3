// `npm run restore -- --from <replica URL or backup file> --to <database path> [--at <time>]`:
// restores a database that is safe to serve from (api/platform/db/restore.ts): its sequences moved
// past the lost window (ids, document numbers, session versions), its unsent outbox held (a
// motorist's text about a job still open queued again), integrity_check passed. Prints what it recovered
// up to. Like `npm run backup`, it reads none of the server's configuration and writes nothing but
// the restored file. Replica credentials (s3://) come from Litestream's usual environment
// variables (LITESTREAM_ACCESS_KEY_ID / LITESTREAM_SECRET_ACCESS_KEY or AWS_*).
import { parseArgs } from 'node:util';
import { RestoreError, restoreDatabase } from '../api/platform/db/restore';

const USAGE = 'Usage: npm run restore -- --from <replica URL or backup file> --to <database path> [--at <ISO time>]';
try {
  const { values, positionals } = parseArgs({
    options: { from: { type: 'string' }, to: { type: 'string' }, at: { type: 'string' } },
    allowPositionals: true,
  });
  if (positionals.length > 0 || !values.from || !values.to) throw new RestoreError(USAGE);
  let at: Date | undefined;
  if (values.at !== undefined) {
    at = new Date(values.at);
    if (Number.isNaN(at.getTime())) throw new RestoreError(`--at must be a time such as 2026-11-26T17:58:00Z, got ${values.at}`);
  }
  const result = await restoreDatabase({ from: values.from, to: values.to, at });
  const quotes = result.sequences.find((s) => s.table === 'quotes');
  console.log(
    [
      `Restored ${values.to} from ${result.source === 'replica' ? 'the replica' : 'the backup file'}: integrity_check ${result.integrity}.`,
      ...(result.nearestEarlier
        ? [
            `The replica holds no copy at ${result.nearestEarlier.asked} (Litestream was restarting then): restored the nearest earlier point instead, the copy that ended in the second of ${result.nearestEarlier.restoredUpTo}.`,
          ]
        : []),
      `Recovered up to ${result.recoveredUpTo ?? '(no rows)'}.`,
      `Sequences moved on by ${result.sequenceGap.toLocaleString('en-GB')}${quotes ? ` (quotes: next id ${quotes.to + 1})` : ''}, so no reference given out after that point is given again.`,
      `Receipt and VAT invoice numbers moved on by the same (${result.counters.find((c) => c.table === 'document_sequences')?.added ?? 0} company(ies) given a first number past it); every operator signs in again.`,
      `${result.outboxHeld} unsent message(s) held as "not sent: restored from a copy" rather than risk sending them twice.`,
      `${result.outboxRequeued} text(s) to motorists about jobs still open queued to be sent.`,
    ].join('\n'),
  );
} catch (err) {
  process.stderr.write(`Restore failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
