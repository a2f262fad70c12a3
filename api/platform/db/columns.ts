// Column helpers shared by every table: timestamps as ISO strings, money as integer pence.
import { integer, text } from 'drizzle-orm/sqlite-core';

const nowIso = () => new Date().toISOString();

export const createdAt = () => text('created_at').notNull().$defaultFn(nowIso);
export const updatedAt = () => text('updated_at').notNull().$defaultFn(nowIso).$onUpdateFn(nowIso);

/** Money in integer pence: sums never touch floats (docs/architecture.md §3). */
export const pence = (name: string) => integer(name, { mode: 'number' });

export const bool = (name: string) => integer(name, { mode: 'boolean' });
