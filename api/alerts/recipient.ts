// Where a company's alerts go: the address set for alerts, else the company email (Contact
// Info), else the owner's sign-in address. Used for the settings answer and for every outbox row.
import type { AlertAddresses } from '../mail/store';

export const alertRecipient = (a: AlertAddresses): string | null => a.alertEmail || a.companyEmail || a.accountEmail || null;
