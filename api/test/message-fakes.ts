// The SMS fake (sms-fake.ts) and the SMTP sink (smtp-sink.ts) as one process beside the browser
// journeys' server (playwright.config.ts), with a small reader the journeys ask what arrived:
// `tsx api/test/message-fakes.ts <port>` puts the SMS provider on <port>, the SMTP server on
// <port> + 1 and the reader on <port> + 2 (GET /healthz, GET /sms, GET /mail). The reader is also
// the journeys' fake map tile server: GET /tiles/{z}/{x}/{y}.png answers a plain tile, and
// GET /tiles-served how many it served.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSmsFake, type FakeSms, type SmsFake } from './sms-fake';
import { startSmtpSink, type ReceivedMail } from './smtp-sink';

/** A message as the reader gives it. */
export type ReadMail = Pick<ReceivedMail, 'to' | 'subject' | 'text'>;
export type ReadSms = FakeSms;

/** The ports the three listen on, from the first. */
export const messageFakePorts = (port: number) => ({ sms: port, smtp: port + 1, reader: port + 2 });

/** The server's environment for talking to the fakes: SMS_* and SMTP_URL. */
export function messageFakeEnv(port: number, sms: Pick<SmsFake, 'accountSid' | 'authToken'> = DEFAULT_ACCOUNT): Record<string, string> {
  const ports = messageFakePorts(port);
  return {
    SMS_API_URL: `http://127.0.0.1:${ports.sms}`,
    SMS_ACCOUNT_SID: sms.accountSid,
    SMS_AUTH_TOKEN: sms.authToken,
    SMS_FROM: '+447700900000',
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
  };
}

const DEFAULT_ACCOUNT = { accountSid: 'ACe2e00000000000000000000000000000', authToken: 'e2e-auth-token' };

/** A plain grey tile: one pixel, drawn at the tile's size. */
const TILE = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==', 'base64');

/** The fake tile server's answer to `GET /tiles/{z}/{x}/{y}.png`: a plain tile, never cached (so every visit fetches its tiles). */
function answerTile(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' });
  res.end(TILE);
}

/**
 * The fake map tile server alone, on a port of the kernel's choosing on loopback (the map bench,
 * scripts/bench/map-render.ts): `tilesUrl` is the template for MAP_TILES_URL.
 */
export async function startTileServer() {
  let served = 0;
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/tiles/')) return res.writeHead(404).end();
    served += 1;
    answerTile(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    tilesUrl: `http://127.0.0.1:${address.port}/tiles/{z}/{x}/{y}.png`,
    served: () => served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startMessageFakes(port: number) {
  let tilesServed = 0;
  const ports = messageFakePorts(port);
  const sms = await startSmsFake({ ...DEFAULT_ACCOUNT, port: ports.sms });
  const mail = await startSmtpSink({ port: ports.smtp });
  const reader = createServer((req, res) => {
    const answer = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/sms') return answer(sms.received);
    if (req.url === '/mail') return answer(mail.received.map(({ to, subject, text }) => ({ to, subject, text })));
    if (req.url === '/healthz') return answer({ ok: true });
    if (req.url === '/tiles-served') return answer({ count: tilesServed });
    if (req.url?.startsWith('/tiles/')) {
      tilesServed += 1;
      return answerTile(res);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => reader.listen(ports.reader, '127.0.0.1', resolve));
  return { sms, mail, readerUrl: `http://127.0.0.1:${ports.reader}` };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 4176);
  void startMessageFakes(port).then(({ readerUrl }) => console.log(`SMS and SMTP fakes read at ${readerUrl}`));
}
