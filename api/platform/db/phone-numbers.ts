// Companies' phone and WhatsApp numbers in E.164 (docs/product.md §17). Numbers saved before the
// portal stored E.164 ("+44 (0)7700 900456", "07700 900456") are rewritten once, by migration
// 0012's data step (api/platform/db/data-migrations.ts); it touches only rows whose number changes.
// A legacy value that is no phone number at all is left as it was for its operator to correct:
// throwing it away would lose the only way a customer had to call them.
import { toE164 } from '#shared/phone-number';
import type { Db } from './client';

export function normalisePhoneNumbers(db: Db): number {
  const sqlite = db.$client;
  const rows = sqlite.prepare('select id, phone, whatsapp from companies where phone is not null or whatsapp is not null').all() as {
    id: number;
    phone: string | null;
    whatsapp: string | null;
  }[];
  const update = sqlite.prepare('update companies set phone = ?, whatsapp = ? where id = ?');
  let changed = 0;
  sqlite.transaction(() => {
    for (const row of rows) {
      const phone = row.phone === null ? null : (toE164(row.phone) ?? row.phone);
      const whatsapp = row.whatsapp === null ? null : (toE164(row.whatsapp) ?? row.whatsapp);
      if (phone === row.phone && whatsapp === row.whatsapp) continue;
      update.run(phone, whatsapp, row.id);
      changed++;
    }
  })();
  return changed;
}
