// Sending one message over SMTP_URL with nodemailer. One pooled connection, reused between
// messages, with timeouts well inside the outbox's lease (api/mail/worker.ts), so a send that
// hangs fails and is retried instead of outliving its lease. A send the outbox gives up on (its
// lane's deadline passed, or the server is stopping) is aborted: its connection is closed even
// mid-message (a server trickling its replies trips no socket timeout), and the next message
// goes over a fresh connection. nodemailer is imported on the first send, so a server without
// SMTP_URL never loads it.
import type nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent with it: an account's invoice as a PDF. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

export interface MailTransport {
  /** Resolves once the server has accepted the message; rejects with its refusal or a connection error; `signal` gives it up. */
  send(mail: OutgoingMail, signal?: AbortSignal): Promise<void>;
  close(): void;
}

type Pool = ReturnType<typeof nodemailer.createTransport>;
/** nodemailer's pool also closes the connections busy sending when asked with `force` (its types omit the option). */
const forceClose = (pool: Pool) => (pool.close as (options?: { force?: boolean }) => void).call(pool, { force: true });

type Mailer = typeof nodemailer;
let mailerLoad: Promise<Mailer> | undefined;
const loadMailer = () => (mailerLoad ??= import('nodemailer').then((module) => module.default));

export function smtpTransport(url: string): MailTransport {
  const open = (mailer: Mailer) =>
    mailer.createTransport({
      url,
      pool: true,
      maxConnections: 1,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      dnsTimeout: 10_000,
    });
  let mailer: Mailer | undefined;
  let pool: Pool | undefined;
  let closed = false;
  return {
    async send(mail, signal) {
      signal?.throwIfAborted();
      mailer ??= await loadMailer();
      signal?.throwIfAborted();
      if (closed) throw new Error('The mail transport is closed');
      pool ??= open(mailer);
      const current = pool;
      const opener = mailer;
      const giveUp = () => {
        if (pool === current && !closed) pool = open(opener);
        forceClose(current);
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      try {
        // Mail clients and autoresponders leave machine-sent mail alone (RFC 3834).
        await current.sendMail({ ...mail, headers: { 'Auto-Submitted': 'auto-generated' } });
      } finally {
        signal?.removeEventListener('abort', giveUp);
      }
    },
    close: () => {
      closed = true;
      if (pool) forceClose(pool);
    },
  };
}
