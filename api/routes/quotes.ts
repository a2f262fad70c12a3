// POST /api/quotes/calculate: public, rate-limited per client. Load the company's cached quote
// config, estimate the distance, price it with the pure engine, store it, answer it.
import { Hono } from 'hono';
import { PREFERRED_DATE_PAST } from '../../shared/constants';
import { penceToPounds } from '../../shared/money';
import { formatPostcode } from '../../shared/postcode';
import { quoteRequestSchema } from '../../shared/schemas';
import type { QuoteResponse } from '../../shared/types';
import { insertQuote } from '../db/quotes';
import { NotFound, Unprocessable, ValidationFailed } from '../errors';
import type { AppEnv } from '../http/context';
import { clientAddress, createRateLimiter } from '../http/rate-limit';
import { validate } from '../http/validate';
import { calculateQuote } from '../pricing/calculate';
import { londonDate } from '../pricing/london-time';
import { isLive } from '../quotes/company-config';
import type { AppDeps } from '../deps';

export function quoteRoutes(deps: AppDeps) {
  const { db, companyCache, distance, config } = deps;
  const limiter = createRateLimiter({ limit: config.quoteRateLimit, windowMs: 60_000 });

  return new Hono<AppEnv>().post(
    '/calculate',
    validate('json', quoteRequestSchema),
    async (c) => {
      const body = c.req.valid('json');
      const signedInCompany = c.get('user')?.companyId ?? undefined;
      const company =
        body.companyId !== undefined
          ? companyCache.byId(body.companyId)
          : body.companySlug
            ? companyCache.bySlug(body.companySlug)
            : signedInCompany !== undefined && signedInCompany !== null
              ? companyCache.byId(signedInCompany)
              : undefined;
      if (!company) {
        if (body.companyId === undefined && !body.companySlug && signedInCompany == null) {
          throw new ValidationFailed('Company is required', { companyId: 'Company is required' });
        }
        throw new NotFound('Company not found');
      }
      // An operator previewing their own page may quote whatever their subscription state.
      const own = signedInCompany === company.companyId;
      if (!own && !isLive(company, deps.now(), config.billing.mode)) {
        throw new NotFound('Company not found');
      }

      // SPEC.md §5's "date minimum is today", in the operator's time zone.
      if (body.preferredDate !== undefined && body.urgency === 'later' && body.preferredDate < londonDate(deps.now())) {
        throw new ValidationFailed(PREFERRED_DATE_PAST, { preferredDate: PREFERRED_DATE_PAST });
      }

      // The limit counts calculations (each stores a quote), so a customer correcting a typo is
      // not locked out; QUOTE_RATE_LIMIT=0 turns it off without even looking up the address.
      if (config.quoteRateLimit > 0) {
        limiter.check(`quote:${clientAddress(c, config.trustProxy)}`, 'Too many quotes requested. Please wait a minute and try again.');
      }

      const pickup = formatPostcode(body.pickupPostcode);
      const destination = formatPostcode(body.destinationPostcode);
      const miles = await withPostcodeField(distance.distanceMiles(pickup, destination), pickup, destination);
      // An operator's base postcode the data does not know means no out-of-area fee, not a refusal.
      const fromBase = company.basePostcode ? await distance.distanceMiles(company.basePostcode, pickup).catch(() => null) : null;

      const now = deps.now();
      const result = calculateQuote(
        { ...body, passengerCount: body.passengerCount ?? 0 },
        { ...company.pricing, pickupMilesFromBase: fromBase },
        miles,
        now,
      );
      const b = result.breakdown;
      const quoteId = await insertQuote(db, {
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
        createdAt: now.toISOString(),
      });
      const response: QuoteResponse = {
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
        currency: 'GBP',
      };
      return c.json(response);
    },
  );
}

/** A postcode no data level knows is a 422 naming it, under the field it came from. */
async function withPostcodeField(promise: Promise<number>, pickup: string, destination: string): Promise<number> {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof Unprocessable && 'postcode' in err) {
      const postcode = String(err.postcode);
      const message = `We could not find the postcode ${postcode}. Please check it and try again.`;
      const fields: Record<string, string> = {};
      if (postcode === pickup) fields.pickupPostcode = message;
      if (postcode === destination) fields.destinationPostcode = message;
      throw new Unprocessable(message, fields);
    }
    throw err;
  }
}
