// Sending one message over SMTP_URL with nodemailer. One pooled connection, reused between
// messages, with timeouts well inside the outbox's lease (api/mail/worker.ts), so a send that
// hangs fails and is retried instead of outliving its lease.
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** Resolves once the server has accepted the message; rejects with its refusal or a connection error. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    pool: true,
    maxConnections: 1,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    dnsTimeout: 10_000,
  });
  return {
    async send(mail) {
      // Mail clients and autoresponders leave machine-sent mail alone (RFC 3834).
      await transporter.sendMail({ ...mail, headers: { 'Auto-Submitted': 'auto-generated' } });
    },
    close: () => transporter.close(),
  };
}
