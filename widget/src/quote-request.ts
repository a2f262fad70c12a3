// The requests the widget makes from the roadside (docs/product.md §17), free of React so they are unit-tested
// directly: the device position to the nearest postcode, and the quote request, retried with the same
// Idempotency-Key so a weak signal never makes two quotes, with its failure handling.
import { api, ApiRequestError, call, type ApiRequestOptions } from '#shared/api-client';
import type { QuoteRequest } from '#shared/schemas';

export const LOCATE_MESSAGES = {
  unsupported: 'This browser cannot share your location. Please type the postcode.',
  denied: 'Location access is turned off. Please type the postcode.',
  timeout: 'Finding your location took too long. Please type the postcode.',
  unavailable: 'We could not find your location. Please type the postcode.',
  lookup: 'We could not look up your postcode just now. Please type it.',
} as const;

export const LOCATE_TIMEOUT_MS = 10_000;
export const QUOTE_TIMEOUT_MS = 15_000;

/**
 * The postcode unit nearest the device and the position, or the short message to show instead.
 * The position goes to the API once; the page keeps it only to offer it with a booking. The endpoint's own 404 message (the sea, abroad) is shown
 * as it is.
 */
export async function locatePostcode(
  apiBase: string,
  /** navigator.geolocation, undefined in a browser without it. */
  geolocation: Geolocation | undefined,
): Promise<{ postcode: string; position: { lat: number; lng: number } } | { message: string }> {
  if (!geolocation) return { message: LOCATE_MESSAGES.unsupported };
  let coords: GeolocationCoordinates;
  try {
    ({ coords } = await new Promise<GeolocationPosition>((resolve, reject) =>
      geolocation.getCurrentPosition(resolve, reject, { timeout: LOCATE_TIMEOUT_MS, maximumAge: 60_000 }),
    ));
  } catch (error) {
    // GeolocationPositionError codes: 1 permission denied, 2 position unavailable, 3 timeout.
    const code = (error as GeolocationPositionError).code;
    return { message: code === 1 ? LOCATE_MESSAGES.denied : code === 3 ? LOCATE_MESSAGES.timeout : LOCATE_MESSAGES.unavailable };
  }
  try {
    const found = await call(
      api(apiBase).postcodes.nearest.$get,
      { query: { lat: String(coords.latitude), lng: String(coords.longitude) } },
      { anonymous: true },
    );
    // The position is kept in the page only to be offered with a booking (booking-form.tsx).
    return { postcode: found.postcode, position: { lat: coords.latitude, lng: coords.longitude } };
  } catch (error) {
    return { message: error instanceof ApiRequestError && error.status === 404 ? error.serverMessage : LOCATE_MESSAGES.lookup };
  }
}

/** 128 random bits in hex. Not crypto.randomUUID: that exists only on https pages. */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One tap of Calculate: named by a fresh Idempotency-Key, given up after 15 s, and sent once
 * more with the same key when the connection drops (fetch's TypeError: no answer at all), so the
 * server stores one quote for the tap. An answer (4xx, 5xx) or the timeout is not retried.
 */
export async function sendQuote(request: QuoteRequest, apiBase: string, options: ApiRequestOptions = {}) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), QUOTE_TIMEOUT_MS);
  const headers = { 'Idempotency-Key': idempotencyKey() };
  const send = () => call(api(apiBase).quotes.calculate.$post, { json: request }, { ...options, headers, signal: controller.signal });
  try {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof TypeError) || controller.signal.aborted) throw error;
      return await send();
    }
  } finally {
    clearTimeout(timer);
  }
}
