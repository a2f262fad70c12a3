// A real SMTP server in-process (smtp-server) on 127.0.0.1 with an ephemeral port, no TLS,
// authentication optional: it keeps every message it accepts, or refuses the next ones on
// demand. Used by the mail tests, the alerts benchmark and the browser journeys' fakes
// (api/test/message-fakes.ts).
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** Decoded headers, lower-case names (the last of each). */
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  received: ReceivedMail[];
  /** Messages accepted so far (kept in `received` unless `keep` is false). */
  accepted: number;
  /** Refuses the next `count` messages at the given stage with `code` (a 4xx or 5xx reply). */
  refuseNext(count: number, code: number, stage?: 'data' | 'rcpt'): void;
  close(): Promise<void>;
}

export async function startSmtpSink(options: { keep?: boolean; port?: number } = {}): Promise<SmtpSink> {
  const keep = options.keep ?? true;
  const refusal = { left: 0, code: 451, stage: 'data' as 'data' | 'rcpt' };
  const refuse = (stage: 'data' | 'rcpt'): Error | null => {
    if (refusal.left === 0 || refusal.stage !== stage) return null;
    refusal.left -= 1;
    return Object.assign(new Error(refusal.code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: refusal.code });
  };
  const sink: SmtpSink = {
    url: '',
    received: [],
    accepted: 0,
    refuseNext(count, code, stage = 'data') {
      Object.assign(refusal, { left: count, code, stage });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(refuse('rcpt'));
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refused = refuse('data');
        if (refused) return callback(refused);
        sink.accepted += 1;
        if (keep) {
          const raw = Buffer.concat(chunks).toString('utf8');
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          sink.received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), ...parseMessage(raw), raw });
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  sink.url = `smtp://127.0.0.1:${port}`;
  return sink;
}

// ------------------------------------------------ just enough MIME to read what nodemailer writes

function splitHead(part: string): { headers: Record<string, string>; body: string } {
  const at = part.indexOf('\r\n\r\n');
  const head = at === -1 ? part : part.slice(0, at);
  const body = at === -1 ? '' : part.slice(at + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** RFC 2047 encoded words (=?UTF-8?Q?…?= and =?UTF-8?B?…?=), adjacent ones joined. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const flat = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < flat.length; i++) {
    if (flat[i] === '=' && /^[0-9A-F]{2}$/i.test(flat.slice(i + 1, i + 3))) {
      bytes.push(parseInt(flat.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(flat[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function parseMessage(raw: string): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'html'> {
  const { headers, body } = splitHead(raw);
  const parts: Record<string, string> = {};
  const boundary = /boundary="?([^";]+)"?/.exec(headers['content-type'] ?? '')?.[1];
  if (boundary) {
    for (const part of body.split(`--${boundary}`).slice(1, -1)) {
      const { headers: partHeaders, body: partBody } = splitHead(part.replace(/^\r\n/, ''));
      const type = (partHeaders['content-type'] ?? '').split(';')[0].trim();
      parts[type] = decodeBody(partHeaders, partBody.replace(/\r\n$/, ''));
    }
  } else {
    parts[(headers['content-type'] ?? 'text/plain').split(';')[0].trim()] = decodeBody(headers, body);
  }
  return { headers, subject: headers.subject ?? '', text: (parts['text/plain'] ?? '').replace(/\r\n/g, '\n'), html: parts['text/html'] ?? '' };
}
