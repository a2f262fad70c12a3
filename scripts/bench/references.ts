// `npx tsx scripts/bench/references.ts gen | migrate [rows] | writer [rows]` (decision 038):
// - gen: µs per reference, the writer's source against crypto.randomInt per character;
// - migrate: migration 0026's SQL on a table of `rows` quotes (default 1,000,000);
// - writer: the group-committed writer's wall and CPU time a quote, in batches of 16 quotes made
//   at 5,000 a second (their createdAt on a virtual clock), on a table of `rows` quotes (default 0):
//   without the unique index on public_id (references drawn as the writer draws them), with it and
//   references wholly random (no bucket), and with it and the writer's references (a time bucket,
//   then 40 random bits) for buckets of 10 ms, 100 ms and 1 s; in turn, three rounds. Each case
//   writes 50,000 quotes on a copy of the same starting file.
import { randomInt } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../api/platform/db/client';
import { BUCKET_MS, randomReferences, REFERENCE_ALPHABET, type ReferenceSource } from '../../api/quotes/reference';
import { createQuoteWriter, insertQuote } from '../../api/quotes/store';
import { storedQuote } from '../../api/test/harness';
import { benchReference } from './fill-database';

const what = process.argv[2] ?? 'gen';
const work = mkdtempSync(path.join(tmpdir(), 'refs-micro-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

function time(label: string, n: number, fn: () => void) {
  const t0 = performance.now();
  fn();
  console.log(`${label}: ${(((performance.now() - t0) * 1000) / n).toFixed(3)} µs each (${n.toLocaleString('en-GB')})`);
}

if (what === 'gen') {
  for (let round = 0; round < 3; round++) {
    const draw = randomReferences();
    let sink = 0;
    const at = Date.now();
    time('randomReferences (a bucket, then 8 characters from randomFillSync blocks)', 1_000_000, () => {
      for (let i = 0; i < 1_000_000; i++) sink += draw(at + i).length;
    });
    time('crypto.randomInt per character', 100_000, () => {
      for (let i = 0; i < 100_000; i++) {
        let r = '';
        for (let j = 0; j < 10; j++) r += REFERENCE_ALPHABET[randomInt(32)];
        sink += r.length;
      }
    });
    if (sink < 0) console.log(sink);
  }
}

/** A database of `rows` quotes with references spread over the whole index, as stored ones are, without the unique index. */
function filled(rows: number): string {
  const file = path.join(work, 'filled.db');
  const db = openDatabase(file);
  const sqlite = db.$client;
  sqlite.exec('drop index quotes_public_id_unique');
  const insert = sqlite.prepare(
    `insert into quotes (id, public_id, company_id, pickup_postcode, destination_postcode, vehicle_type, gearbox_type,
       rolling_status, passenger_count, problem_type, urgency, distance, call_out_fee_pence, distance_fee_pence,
       labour_fee_pence, extra_fees_pence, total_price_pence, created_at)
     values (?, ?, 1, 'M1 1AE', 'LS1 4AP', 'Car', 'Manual', 'Rolling', 0, 'Engine Failure', 'immediate', 43.2, 5000, 10800, 4500, 4500, 24800, ?)`,
  );
  const t0 = performance.now();
  for (let first = 1; first <= rows; first += 50_000) {
    const ids = Array.from({ length: Math.min(50_000, rows - first + 1) }, (_, i) => first + i);
    sqlite.transaction(() => {
      for (const id of ids) insert.run(id, benchReference(id), new Date(1.7e12 + id * 1000).toISOString());
    })();
  }
  console.log(`filled ${rows.toLocaleString('en-GB')} rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.close();
  return file;
}

if (what === 'migrate') {
  const rows = Number(process.argv[3] ?? 1_000_000);
  const db = openDatabase(filled(rows));
  const t1 = performance.now();
  db.$client.exec('CREATE UNIQUE INDEX `quotes_public_id_unique` ON `quotes` (`public_id`)');
  console.log(`migration 0026's SQL on ${rows.toLocaleString('en-GB')} rows: ${(performance.now() - t1).toFixed(0)} ms`);
}

if (what === 'writer') {
  const rows = Number(process.argv[3] ?? 0);
  const start = filled(rows);
  const RATE = 5_000;
  const BATCH = 16;
  const QUOTES = 50_000;
  /** The writer's source with buckets of `bucketMs` instead of BUCKET_MS (the clock scaled). */
  const bucketed = (bucketMs: number): ReferenceSource => {
    const draw = randomReferences();
    return (at) => draw((at * BUCKET_MS) / bucketMs);
  };
  /** A random bucket for every reference: wholly random references of the same shape. */
  const unbucketed = (): ReferenceSource => {
    const draw = randomReferences();
    return () => draw(randomInt(2 ** 47));
  };
  const cases: [string, boolean, () => ReferenceSource][] = [
    ['no unique index', false, () => bucketed(BUCKET_MS)],
    ['unique index, wholly random', true, unbucketed],
    ['unique index, 10 ms buckets', true, () => bucketed(10)],
    ['unique index, 100 ms buckets', true, () => bucketed(100)],
    ['unique index, 1 s buckets', true, () => bucketed(1_000)],
  ];
  const base = storedQuote(1, {});
  for (let round = 0; round < 3; round++) {
    for (const [label, indexed, source] of cases) {
      const file = path.join(work, 'case.db');
      rmSync(`${file}-wal`, { force: true });
      copyFileSync(start, file);
      const db = openDatabase(file);
      if (indexed) db.$client.exec('CREATE UNIQUE INDEX IF NOT EXISTS `quotes_public_id_unique` ON `quotes` (`public_id`)');
      db.$store.quoteWriter = createQuoteWriter(db, source());
      const startsAt = Date.parse('2026-06-10T12:00:00.000Z');
      const cpu0 = process.cpuUsage();
      const t = performance.now();
      for (let i = 0; i < QUOTES / BATCH; i++) {
        await Promise.all(
          Array.from({ length: BATCH }, (_, j) => insertQuote(db, { ...base, createdAt: new Date(startsAt + ((i * BATCH + j) * 1000) / RATE).toISOString() })),
        );
      }
      const cpu = process.cpuUsage(cpu0);
      console.log(
        `round ${round + 1}, ${label}: ${(((performance.now() - t) * 1000) / QUOTES).toFixed(1)} µs wall, ${((cpu.user + cpu.system) / QUOTES).toFixed(1)} µs CPU a quote`,
      );
      db.$client.close();
    }
  }
}
