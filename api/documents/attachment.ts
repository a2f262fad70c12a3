// A frozen document as a mail's attachment (an account's invoice or credit note, docs/product.md §26):
// drawn by the outbox as it sends the mail, from the document as issued, so no PDF is stored.
import { eq } from 'drizzle-orm';
import { DOCUMENT_TITLES, documentNumber } from '#shared/documents';
import type { Db } from '../platform/db/client';
import { documents } from '../platform/db/schema';
import { renderDocumentPdf } from './pdf';
import { printable } from './service';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export async function documentAttachment(db: Db, documentId: number): Promise<MailAttachment | undefined> {
  const row = db.select().from(documents).where(eq(documents.id, documentId)).get();
  if (!row) return undefined;
  return {
    filename: `${DOCUMENT_TITLES[row.kind].toLowerCase().replaceAll(' ', '-')}-${documentNumber(row.number)}.pdf`,
    content: Buffer.from(await renderDocumentPdf(printable(row))),
    contentType: 'application/pdf',
  };
}
