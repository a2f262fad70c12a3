// Test support: a stand-in for the DVLA's Vehicle Enquiry Service on 127.0.0.1, serving the
// mock registrations the DVLA publishes for its test environment (the AA19… and ER19… plates,
// with the status codes and bodies it documents) plus a few of our own: light and heavy vans, a
// motorcycle, and a plate whose answer comes only after `slowMs`. It checks the x-api-key header
// like the real service (403 without the right key) and records every request.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_DVLA_KEY = 'fake-dvla-key-0123456789abcdef';

const vehicle = (registrationNumber: string, fields: Record<string, unknown>) => ({
  registrationNumber,
  markedForExport: false,
  taxStatus: 'Taxed',
  motStatus: 'No details held by DVLA',
  yearOfManufacture: 2019,
  monthOfFirstRegistration: '2019-03',
  ...fields,
});

const dvlaError = (status: number, title: string, detail: string) => ({ errors: [{ status: String(status), code: String(status), title, detail }] });

/** The DVLA's published mock plates (developer portal, "VES API Test Environment"). */
export const DVLA_MOCK_PLATES = {
  /** A red Ford car (M1, petrol). */
  found: 'AA19AAA',
  /** A red Ford car that is electric. */
  electric: 'AA19EEE',
  /** An articulated goods vehicle of 44,000 kg with no type approval. */
  artic: 'AA19PPP',
  badRequest: 'ER19BAD',
  notFound: 'ER19NFD',
  rateLimited: 'ER19THR',
  serverError: 'ER19ERR',
  maintenance: 'ER19MNT',
} as const;

/** This fake's own plates, not the DVLA's. */
export const FAKE_PLATES = {
  /** A white Ford van (N1) of 2,000 kg, diesel. */
  van: 'VN19AAA',
  /** A white Ford van (N1) of 3,500 kg, diesel. */
  largeVan: 'VN19LRG',
  /** A black Honda motorcycle (L3). */
  motorcycle: 'MC19AAA',
  /** Answers a white Ford car after `slowMs`. */
  slow: 'SL19OOW',
} as const;

type Answer = { status: number; body: unknown; headers?: Record<string, string> };

const ANSWERS: Record<string, Answer> = {
  AA19AAA: {
    status: 200,
    body: vehicle('AA19AAA', {
      artEndDate: '2025-03-30',
      co2Emissions: 300,
      engineCapacity: 2000,
      euroStatus: 'EURO1',
      fuelType: 'PETROL',
      revenueWeight: 0,
      colour: 'RED',
      make: 'FORD',
      typeApproval: 'M1',
      wheelplan: '2 AXLE RIGID BODY',
      realDrivingEmissions: '1',
    }),
  },
  AA19EEE: {
    status: 200,
    body: vehicle('AA19EEE', {
      co2Emissions: 200,
      euroStatus: 'EURO1',
      fuelType: 'ELECTRICITY',
      motStatus: 'No results returned',
      revenueWeight: 0,
      colour: 'RED',
      make: 'FORD',
      typeApproval: 'M1',
      wheelplan: '2 AXLE RIGID BODY',
    }),
  },
  AA19PPP: {
    status: 200,
    body: vehicle('AA19PPP', {
      co2Emissions: 0,
      engineCapacity: 2000,
      euroStatus: 'EURO6',
      fuelType: 'PETROL',
      revenueWeight: 44000,
      colour: 'RED',
      make: 'FORD',
      yearOfManufacture: 2016,
      wheelplan: '3 AXLE + 3 AXLE ARTIC',
    }),
  },
  ER19BAD: { status: 400, body: dvlaError(400, 'Bad Request', 'Invalid format for field - vehicle registration number') },
  ER19NFD: { status: 404, body: dvlaError(404, 'Vehicle Not Found', 'Record for vehicle not found') },
  ER19THR: { status: 429, body: dvlaError(429, 'Too Many Requests', 'Too Many Requests'), headers: { 'retry-after': '30' } },
  ER19ERR: { status: 500, body: dvlaError(500, 'Internal Server Error', 'System Error occurred') },
  ER19MNT: {
    status: 503,
    body: {
      errors: [
        {
          status: 503,
          title: 'System currently down for maintenance',
          detail: 'The service is currently down for maintenance, please contact support for more information',
        },
      ],
    },
  },
  VN19AAA: {
    status: 200,
    body: vehicle('VN19AAA', { fuelType: 'DIESEL', revenueWeight: 2000, colour: 'WHITE', make: 'FORD', typeApproval: 'N1', wheelplan: '2 AXLE RIGID BODY' }),
  },
  VN19LRG: {
    status: 200,
    body: vehicle('VN19LRG', { fuelType: 'DIESEL', revenueWeight: 3500, colour: 'WHITE', make: 'FORD', typeApproval: 'N1', wheelplan: '2 AXLE RIGID BODY' }),
  },
  MC19AAA: {
    status: 200,
    body: vehicle('MC19AAA', { fuelType: 'PETROL', revenueWeight: 0, colour: 'BLACK', make: 'HONDA', typeApproval: 'L3', wheelplan: '2 WHEEL' }),
  },
  SL19OOW: {
    status: 200,
    body: vehicle('SL19OOW', { fuelType: 'PETROL', revenueWeight: 0, colour: 'WHITE', make: 'FORD', typeApproval: 'M1', wheelplan: '2 AXLE RIGID BODY' }),
  },
};

export interface DvlaFakeRequest {
  registrationNumber: string;
  /** Whether the x-api-key header carried the fake's key. */
  keyAccepted: boolean;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

/** The endpoint of a fake on `port`, as DVLA_API_URL takes it. */
export const dvlaFakeUrl = (port: number) => `http://127.0.0.1:${port}/vehicle-enquiry/v1/vehicles`;

export async function startDvlaFake(options: { slowMs?: number; port?: number } = {}) {
  const slowMs = options.slowMs ?? 3000;
  const requests: DvlaFakeRequest[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();

  const server = createServer(async (req, res) => {
    const send = (answer: Answer) => {
      if (res.destroyed) return;
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    };
    // For a process waiting for the fake to be up (the browser journeys' web servers).
    if (req.method === 'GET' && req.url === '/healthz') return send({ status: 200, body: { status: 'ok' } });
    if (req.method !== 'POST' || req.url !== '/vehicle-enquiry/v1/vehicles') {
      return send({ status: 404, body: { message: 'Not Found' } });
    }
    const keyAccepted = req.headers['x-api-key'] === FAKE_DVLA_KEY;
    let registrationNumber = '';
    try {
      registrationNumber = String((JSON.parse(await readBody(req)) as { registrationNumber?: unknown }).registrationNumber ?? '');
    } catch {
      return send({ status: 400, body: dvlaError(400, 'Bad Request', 'Invalid request body') });
    }
    requests.push({ registrationNumber, keyAccepted });
    if (!keyAccepted) return send({ status: 403, body: { message: 'Forbidden' } });
    const answer = ANSWERS[registrationNumber] ?? ANSWERS.ER19NFD;
    if (registrationNumber === FAKE_PLATES.slow) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        send(answer);
      }, slowMs);
      timers.add(timer);
      return;
    }
    send(answer);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** The endpoint, as DVLA_API_URL takes it. */
    url: dvlaFakeUrl(port),
    requests,
    /** Requests made for one plate. */
    count: (registrationNumber: string) => requests.filter((r) => r.registrationNumber === registrationNumber).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `tsx api/test/dvla-fake.ts <port>`: the fake on its own, for the browser journeys' server.
if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 4175);
  void startDvlaFake({ port }).then(() => console.log(`DVLA fake on ${dvlaFakeUrl(port)}`));
}
