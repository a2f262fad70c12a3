import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '#shared/api-client';
import type { QuoteRequest } from '#shared/schemas';
import { LOCATE_MESSAGES, QUOTE_TIMEOUT_MS, idempotencyKey, locatePostcode, sendQuote } from './quote-request';

/** What the form sends; these tests look only at how it is sent. */
const A_REQUEST = {} as QuoteRequest;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A Geolocation that answers with a position or fails with a GeolocationPositionError code. */
function geolocation(answer: { latitude: number; longitude: number } | { code: 1 | 2 | 3 }) {
  const getCurrentPosition = vi.fn((resolve: PositionCallback, reject?: PositionErrorCallback | null, _options?: PositionOptions) => {
    if ('code' in answer) reject?.({ code: answer.code, message: 'no' } as GeolocationPositionError);
    else resolve({ coords: { ...answer, accuracy: 10 }, timestamp: 0 } as unknown as GeolocationPosition);
  });
  return { getCurrentPosition } as unknown as Geolocation & { getCurrentPosition: typeof getCurrentPosition };
}

let fetchMock: ReturnType<typeof vi.fn>;
function stubFetch(impl: (url: string, init: RequestInit) => Promise<Response>) {
  fetchMock = vi.fn(impl);
  vi.stubGlobal('fetch', fetchMock);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('locatePostcode', () => {
  it('asks for the position with a 10 s timeout and returns the nearest postcode', async () => {
    stubFetch(async () => json({ postcode: 'LS1 4AP', distanceMetres: 42 }));
    const geo = geolocation({ latitude: 53.7965, longitude: -1.5478 });
    expect(await locatePostcode('https://api.example', geo)).toEqual({ postcode: 'LS1 4AP', position: { lat: 53.7965, lng: -1.5478 } });
    expect(geo.getCurrentPosition.mock.calls[0][2]).toMatchObject({ timeout: 10_000 });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('https://api.example/api/postcodes/nearest?lat=53.7965&lng=-1.5478');
    expect(init.credentials).toBe('omit');
  });

  it('gives denied permission, timeout, no position and no geolocation each their own message', async () => {
    stubFetch(async () => json({ postcode: 'LS1 4AP', distanceMetres: 42 }));
    expect(await locatePostcode('', geolocation({ code: 1 }))).toEqual({ message: LOCATE_MESSAGES.denied });
    expect(await locatePostcode('', geolocation({ code: 3 }))).toEqual({ message: LOCATE_MESSAGES.timeout });
    expect(await locatePostcode('', geolocation({ code: 2 }))).toEqual({ message: LOCATE_MESSAGES.unavailable });
    expect(await locatePostcode('', undefined)).toEqual({ message: LOCATE_MESSAGES.unsupported });
    expect(new Set(Object.values(LOCATE_MESSAGES)).size).toBe(5);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the endpoint’s 404 message as it is, and its own for other failures', async () => {
    const sea = 'We could not find a UK postcode near you. Please type it.';
    stubFetch(async () => json({ message: sea, code: 'NO_POSTCODE_NEAR' }, 404));
    expect(await locatePostcode('', geolocation({ latitude: 54.5, longitude: 3 }))).toEqual({ message: sea });
    stubFetch(async () => json({ message: 'Internal error' }, 500));
    expect(await locatePostcode('', geolocation({ latitude: 54.5, longitude: 3 }))).toEqual({ message: LOCATE_MESSAGES.lookup });
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await locatePostcode('', geolocation({ latitude: 54.5, longitude: 3 }))).toEqual({ message: LOCATE_MESSAGES.lookup });
  });
});

describe('sendQuote', () => {
  const keyOf = (call: unknown[]) => ((call[1] as RequestInit).headers as Record<string, string>)['Idempotency-Key'];

  it('names each tap with its own random key', async () => {
    stubFetch(async () => json({ quoteId: 'A' }));
    await sendQuote(A_REQUEST, '');
    await sendQuote(A_REQUEST, '');
    const [first, second] = fetchMock.mock.calls.map(keyOf);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(first).not.toBe(second);
    expect(idempotencyKey()).not.toBe(idempotencyKey());
  });

  it('sends once more with the same key when the connection drops', async () => {
    let calls = 0;
    stubFetch(async () => (++calls === 1 ? Promise.reject(new TypeError('Failed to fetch')) : json({ quoteId: 'A' })));
    expect(await sendQuote(A_REQUEST, '')).toEqual({ quoteId: 'A' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(keyOf(fetchMock.mock.calls[1])).toBe(keyOf(fetchMock.mock.calls[0]));
  });

  it('retries only once', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(sendQuote(A_REQUEST, '')).rejects.toBeInstanceOf(TypeError);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not retry an answer, 5xx or 4xx', async () => {
    for (const status of [500, 503, 400, 422]) {
      stubFetch(async () => json({ message: 'no' }, status));
      await expect(sendQuote(A_REQUEST, '')).rejects.toBeInstanceOf(ApiRequestError);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    }
  });

  it('gives up after 15 s without retrying', async () => {
    vi.useFakeTimers();
    stubFetch(
      (_url, init) => new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))),
    );
    const sent = sendQuote(A_REQUEST, '');
    const outcome = sent.then(
      () => 'answered',
      (error: unknown) => (error instanceof DOMException ? error.name : 'other'),
    );
    await vi.advanceTimersByTimeAsync(QUOTE_TIMEOUT_MS - 1);
    expect(fetchMock.mock.calls[0][1].signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await outcome).toBe('AbortError');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
