// Phone jobs' routes (declared in the route contract, api/contract/phone.ts): pricing, storing,
// texting and booking a caller's quote; the missed calls; the caller's page of a link; the voice
// webhook. The rules are api/phone/service.ts's.
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';
import { phoneService } from './service';

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

export function phoneRoutes(parts: AppParts) {
  const { deps, bookings, payments, accounts } = parts;
  const phone = phoneService({ ...deps, bookings, payments, accounts });
  return serve(parts, contract.phone, {
    price: async (c) => c.json(await phone.price(currentUser(c).companyId, c.req.valid('json')), 200),
    create: async (c) => {
      const user = currentUser(c);
      return c.json(await phone.create({ userId: user.id, companyId: user.companyId, name: user.name }, c.req.valid('json')), 201);
    },
    text: async (c) => c.json(await phone.text(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json').phone), 200),
    book: async (c) => c.json(await phone.book(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json')), 201),
    paymentLink: (c) => c.json(phone.paymentLink(currentUser(c).companyId, c.req.param('reference')), 200),
    textPaymentLink: async (c) => c.json(await phone.textPaymentLink(currentUser(c).companyId, c.req.param('reference'), c.req.valid('json').phone), 200),
    missedCalls: (c) => c.json(phone.missedCalls(currentUser(c).companyId), 200),
    pay: async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await phone.pay(c.req.param('token')), 200);
    },
    link: (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(phone.link(c.req.param('token')), 200);
    },
    voice: async (c) => {
      // The signature covers the URL Twilio was given: our public origin, this path and any query.
      const url = `${deps.config.publicUrl}${c.req.path}${new URL(c.req.url).search}`;
      const params = Object.fromEntries(new URLSearchParams(await c.req.text()));
      await phone.voice(url, params, c.req.header('x-twilio-signature'));
      return c.body(EMPTY_TWIML, 200, { 'Content-Type': 'text/xml; charset=utf-8' });
    },
  });
}
