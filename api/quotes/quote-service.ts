// A quote's own work, with no HTTP in it: find the company, check it may quote, estimate the
// distance, price it with the pure engine, store it, build the answer. The route
// (api/quotes/routes.ts) adds validation, the rate limit and the JSON response around it; the
// benchmark runs the same function behind a bare node:http handler to measure what the framework
// costs (scripts/bench/bare-quote-server.ts).
import type { z } from 'zod';
import { PREFERRED_DATE_PAST } from '#shared/constants';
import { penceToPounds } from '#shared/money';
import { formatPhoneNational } from '#shared/phone-number';
import { formatPostcode } from '#shared/postcode';
import { quotesClosedMessage } from '#shared/share';
import { slugify } from '#shared/slug';
import type { quoteRequestSchema } from '#shared/schemas';
import type { QuoteResponse } from '#shared/types';
import { insertQuote, type NewQuote } from './store';
import type { AppDeps } from '../platform/deps';
import { Conflict, NotFound, OutsideServiceArea, Unprocessable, ValidationFailed } from '../platform/errors';
import { priceCompanyQuote, type CompanyPricing, type PriceLine, type QuoteInput } from '../engine/pricing/calculate';
import { layerRateCard, type RateCard } from '../engine/pricing/rate-card';
import { londonDate } from '../engine/calendar/uk-calendar';
import { onlineQuotes, type CompanyQuoteConfig } from './company-config';
import { createReplayCache, KEY_REUSED } from './idempotency';

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for a different request. Use a new key for each calculation.';

/** How long an Idempotency-Key answers with its first quote, and how many keys are kept at most. */
export const IDEMPOTENCY_WINDOW_MS = 10 * 60_000;
export const IDEMPOTENCY_MAX_KEYS = 10_000;

/** A quote request once validated. */
export type ValidQuoteRequest = z.output<typeof quoteRequestSchema>;

export interface QuoteCaller {
  /** The signed-in operator's company: they may quote their own page whatever its subscription. */
  signedInCompanyId?: number | null;
  /** Called once the request is known to be for a live company, before any work is stored. */
  admit?: () => void;
  /**
   * The client's name for this calculation (the Idempotency-Key header): the same key for the same
   * company within IDEMPOTENCY_WINDOW_MS answers with the first quote and stores no second one.
   */
  idempotencyKey?: string;
  /** An account's rate card (api/accounts): laid over the company's prices for this quote only. The public route never sets it. */
  rateCard?: RateCard;
}

export interface QuoteServiceDeps extends Pick<AppDeps, 'db' | 'companyCache' | 'distance' | 'config' | 'now'> {
  /** Stores a quote and resolves with its public reference once committed; by default insertQuote. */
  storeQuote?: (quote: NewQuote) => Promise<string>;
}

export function createQuoteService(deps: QuoteServiceDeps) {
  const { db, companyCache, distance, config } = deps;
  const storeQuote = deps.storeQuote ?? ((quote: NewQuote) => insertQuote(db, quote));

  const replays = createReplayCache<QuoteResponse>({ maxEntries: IDEMPOTENCY_MAX_KEYS, windowMs: IDEMPOTENCY_WINDOW_MS });

  return async function quote(body: ValidQuoteRequest, caller: QuoteCaller = {}): Promise<QuoteResponse> {
    const signedInCompany = caller.signedInCompanyId ?? undefined;
    const company =
      body.companyId !== undefined
        ? companyCache.byId(body.companyId)
        : body.companySlug
          ? companyCache.bySlug(body.companySlug)
          : signedInCompany !== undefined
            ? companyCache.byId(signedInCompany)
            : undefined;
    if (!company) {
      if (body.companyId === undefined && !body.companySlug && signedInCompany === undefined) {
        throw new ValidationFailed('Company is required', { companyId: 'Company is required' });
      }
      throw new NotFound('Company not found');
    }
    // One clock reading for the whole quote: access, the date check and the price agree.
    const now = deps.now();
    const own = signedInCompany === company.companyId;
    // Not to the public while lapsed, nor while a motorist given a price could not reach anyone.
    if (!own) {
      const state = onlineQuotes(company, now, config.billing.mode);
      if (state === 'paused') throw new Conflict(quotesClosedMessage(company.name, state), 'QUOTES_PAUSED');
      if (state === 'not-set-up') throw new Conflict(quotesClosedMessage(company.name, state), 'QUOTES_NOT_SET_UP');
    }

    refuseUnoffered(body, company);

    // docs/product.md §5's "date minimum is today", in the operator's time zone.
    if (body.preferredDate !== undefined && body.urgency === 'later' && body.preferredDate < londonDate(now)) {
      throw new ValidationFailed(PREFERRED_DATE_PAST, { preferredDate: PREFERRED_DATE_PAST });
    }

    // A repeat is answered before the rate limit: it costs nothing and stores nothing.
    const replayKey = caller.idempotencyKey === undefined ? undefined : `${company.companyId}:${caller.idempotencyKey}`;
    // Keyed on the request too: the same key with another body (or another client's) is refused, not given the first quote.
    const fingerprint = replayKey === undefined ? '' : JSON.stringify(body);
    const earlier = replayKey === undefined ? undefined : replays.get(replayKey, now.getTime(), fingerprint);
    if (earlier === KEY_REUSED) throw new Unprocessable(IDEMPOTENCY_KEY_REUSED, undefined, 'IDEMPOTENCY_KEY_REUSED');
    if (earlier) return earlier;

    caller.admit?.();
    const answer = priceAndStore(body, company, now, caller.rateCard === undefined ? company.pricing : layerRateCard(company.pricing, caller.rateCard));
    if (replayKey !== undefined) replays.remember(replayKey, answer, now.getTime(), fingerprint);
    return answer;
  };

  async function priceAndStore(body: ValidQuoteRequest, company: CompanyQuoteConfig, now: Date, pricing: CompanyPricing): Promise<QuoteResponse> {
    const pickup = formatPostcode(body.pickupPostcode);
    const destination = formatPostcode(body.destinationPostcode);
    // An operator's base postcode the data does not know means no out-of-area fee, not a refusal.
    const base = company.basePostcode;
    let miles: number;
    let fromBase: number | null;
    if (distance.milesNow) {
      // The built-in estimate answers at once: no Promise for either distance
      // (docs/decisions/025-quote-path-beyond-e4789ff.md).
      miles = milesWithPostcodeField(distance.milesNow, pickup, destination);
      fromBase = base ? milesOrNull(distance.milesNow, base, pickup) : null;
    } else {
      // Both at once: with OSRM, a quote waits for the slower of the two calls, not their sum.
      [miles, fromBase] = await Promise.all([
        distance.distanceMiles(pickup, destination).catch((err: unknown) => {
          throw withPostcodeField(err, pickup, destination);
        }),
        base ? distance.distanceMiles(base, pickup).catch(() => null) : null,
      ]);
    }

    // The validated body (its passengerCount defaulted to 0) and the cached pricing as they are:
    // no copy of either per quote (docs/decisions/023-quote-path-since-017.md).
    const result = priceOrRefuse(body, company, pricing, fromBase, miles, now);
    const b = result.breakdown;
    const validUntil = result.validUntil.toISOString();
    const quoteId = await storeQuote({
      companyId: company.companyId,
      pickupPostcode: pickup,
      destinationPostcode: destination,
      vehicleType: body.vehicleType,
      gearboxType: body.gearboxType,
      rollingStatus: body.rollingStatus,
      passengerCount: body.passengerCount ?? 0,
      problemType: body.problemType,
      urgency: body.urgency,
      preferredDate: body.preferredDate ?? null,
      preferredTime: body.preferredTime ?? null,
      distance: miles,
      callOutFeePence: b.callOutFee,
      distanceFeePence: b.distanceFee,
      labourFeePence: b.labourFee,
      extraFeesPence: b.extraFees,
      totalPricePence: result.totalPence,
      vatPence: result.vat?.amountPence ?? 0,
      vatRatePercent: result.vat?.ratePercent ?? 0,
      validUntil,
      lines: linesJson(result.lines),
      registration: body.registration ?? null,
      createdAt: now.toISOString(),
    });
    return {
      totalPrice: penceToPounds(result.totalPence),
      quoteId,
      distance: miles,
      breakdown: {
        vehicleBasePrice: penceToPounds(b.vehicleBasePrice),
        callOutFee: penceToPounds(b.callOutFee),
        distanceFee: penceToPounds(b.distanceFee),
        labourFee: penceToPounds(b.labourFee),
        extraFees: penceToPounds(b.extraFees),
        gearboxFee: penceToPounds(b.gearboxFee),
        rollingStatusFee: penceToPounds(b.rollingStatusFee),
        passengerFee: penceToPounds(b.passengerFee),
      },
      extras: result.extras.map((e) => ({ label: e.label, amount: penceToPounds(e.amountPence) })),
      lines: result.lines.map((line) => ({ label: line.label, amount: penceToPounds(line.amountPence) })),
      vat: result.vat ? { rate: result.vat.ratePercent, amount: penceToPounds(result.vat.amountPence), includedInPrices: result.vat.includedInPrices } : null,
      validUntil,
      currency: 'GBP',
    };
  }
}

const OFFERED_FIELDS = ['gearboxType', 'rollingStatus', 'problemType'] as const;

const NOT_OFFERED = {
  gearboxType: 'This gearbox type is not offered. Please choose one from the list.',
  rollingStatus: 'This rolling status is not offered. Please choose one from the list.',
  problemType: 'This problem is not offered. Please choose one from the list.',
} as const;

/**
 * A gearbox, rolling status or problem the company does not offer (unknown, or its row turned
 * off) is refused as an unknown vehicle type is: priced at £0 and stored as typed, it reached the
 * portal, the CSV and the alert mails. Set look-ups in the cached configuration: no database work.
 */
function refuseUnoffered(body: ValidQuoteRequest, company: CompanyQuoteConfig): void {
  let fields: Record<string, string> | undefined;
  for (const field of OFFERED_FIELDS) {
    const offered = company.offered[field];
    const value = body[field];
    // The sets hold slugs only, so a value found as it is is its own slug: the form's values (the
    // usual case) skip building one.
    if (!offered.has(value) && !offered.has(slugify(value))) (fields ??= {})[field] = NOT_OFFERED[field];
  }
  if (fields) throw new ValidationFailed(Object.values(fields)[0], fields);
}

/** The engine's price, or, for a pickup beyond the maximum radius, the company's own refusal. */
function priceOrRefuse(
  request: QuoteInput,
  company: CompanyQuoteConfig,
  pricing: CompanyPricing,
  pickupMilesFromBase: number | null,
  miles: number,
  now: Date,
) {
  try {
    return priceCompanyQuote(request, pricing, pickupMilesFromBase, miles, now);
  } catch (err) {
    if (!(err instanceof OutsideServiceArea)) throw err;
    // Stored in E.164; said as a motorist would dial it (0161 496 0000).
    const callUs = company.phone ? ` Please call us on ${formatPhoneNational(company.phone)}.` : '';
    throw new OutsideServiceArea(`This pickup is outside ${company.name}'s area.${callUs}`, company.phone);
  }
}

/**
 * Exactly JSON.stringify(lines), for the stored snapshot: written by hand because every line has
 * the same two properties, and JSON.stringify's generic walk was ~5 % of a quote's CPU
 * (docs/decisions/023-quote-path-since-017.md). api/quotes/quote-service.test.ts compares the two.
 */
export function linesJson(lines: readonly PriceLine[]): string {
  return labelledAmountsJson(lines, 'amountPence');
}

/** A number as JSON.stringify writes it: `null` unless finite. */
const numberJson = (n: number) => (Number.isFinite(n) ? String(n) : 'null');

/** Exactly JSON.stringify of lines that each hold a label and one amount, under `key`. */
function labelledAmountsJson<K extends string>(lines: readonly ({ label: string } & Record<K, number>)[], key: K): string {
  let json = '[';
  for (let i = 0; i < lines.length; i++) {
    json += `${i === 0 ? '' : ','}{"label":${JSON.stringify(lines[i].label)},"${key}":${numberJson(lines[i][key])}}`;
  }
  return `${json}]`;
}

/**
 * Exactly JSON.stringify(answer), for the quote route's body: written by hand because every answer
 * has the same shape, and JSON.stringify's generic walk over its ~40 values was ~4 µs of each
 * quote (docs/decisions/025-quote-path-beyond-e4789ff.md). quote-service.test.ts compares the two.
 */
export function quoteResponseJson(answer: QuoteResponse): string {
  const b = answer.breakdown;
  let json =
    `{"totalPrice":${numberJson(answer.totalPrice)},"quoteId":${JSON.stringify(answer.quoteId)},"distance":${numberJson(answer.distance)}` +
    `,"breakdown":{"vehicleBasePrice":${numberJson(b.vehicleBasePrice)},"callOutFee":${numberJson(b.callOutFee)},"distanceFee":${numberJson(b.distanceFee)}` +
    `,"labourFee":${numberJson(b.labourFee)},"extraFees":${numberJson(b.extraFees)},"gearboxFee":${numberJson(b.gearboxFee)}` +
    `,"rollingStatusFee":${numberJson(b.rollingStatusFee)},"passengerFee":${numberJson(b.passengerFee)}}` +
    `,"extras":${labelledAmountsJson(answer.extras, 'amount')}`;
  if (answer.lines !== undefined) json += `,"lines":${labelledAmountsJson(answer.lines, 'amount')}`;
  const vat = answer.vat;
  if (vat === null) json += ',"vat":null';
  else if (vat !== undefined) json += `,"vat":{"rate":${numberJson(vat.rate)},"amount":${numberJson(vat.amount)},"includedInPrices":${vat.includedInPrices}}`;
  if (answer.validUntil !== undefined) json += `,"validUntil":${JSON.stringify(answer.validUntil)}`;
  return `${json},"currency":${JSON.stringify(answer.currency)}}`;
}

/** A postcode no data level knows is a 422 naming it, under the field it came from; any other error as it is. */
function withPostcodeField(err: unknown, pickup: string, destination: string): unknown {
  if (!(err instanceof Unprocessable && 'postcode' in err)) return err;
  const postcode = String(err.postcode);
  const message = `We could not find the postcode ${postcode}. Please check it and try again.`;
  const fields: Record<string, string> = {};
  if (postcode === pickup) fields.pickupPostcode = message;
  if (postcode === destination) fields.destinationPostcode = message;
  return new Unprocessable(message, fields, err.code);
}

function milesWithPostcodeField(milesNow: (from: string, to: string) => number, pickup: string, destination: string): number {
  try {
    return milesNow(pickup, destination);
  } catch (err) {
    throw withPostcodeField(err, pickup, destination);
  }
}

function milesOrNull(milesNow: (from: string, to: string) => number, from: string, to: string): number | null {
  try {
    return milesNow(from, to);
  } catch {
    return null;
  }
}
