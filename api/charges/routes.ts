// The charge lists (docs/product.md §7): private list/create/update/delete scoped to the session's
// company, and public reads of enabled rows by company id. The rules are api/charges/'s; the
// routes are the table's, one group per list.
import { currentUser } from '../auth/session';
import { chargeResources, type ChargeResource } from '../charges/resources';
import { chargeService } from '../charges/service';
import type { ChargeKind } from '../charges/store';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';
import { actorOf } from '../team/audit';

// The lists differ only in their paths, body schema and row JSON, which the table declares per list and
// OpenAPIHono validates per route; the handlers are one shape, written once against the
// vehicle types' types.
type Group = typeof contract.vehicleTypes;
type AnyResource = ChargeResource<ChargeKind, Group['create']['request']['body']['content']['application/json']['schema'], never>;

function listRoutes(parts: AppParts, group: Group, resource: AnyResource) {
  const service = chargeService(parts.deps, resource);
  return serve(parts, group, {
    list: (c) => c.json(service.list(currentUser(c).companyId), 200),
    publicList: (c) => c.json(service.listPublic(c.req.param('id')), 200),
    create: async (c) => c.json(await service.create(currentUser(c).companyId, c.req.valid('json'), actorOf(c)), 201),
    update: async (c) => c.json(await service.update(currentUser(c).companyId, c.req.param('id'), c.req.valid('json'), actorOf(c)), 200),
    remove: async (c) => {
      await service.remove(currentUser(c).companyId, c.req.param('id'), actorOf(c));
      return c.json({ success: true as const }, 200);
    },
  });
}

export function chargeRoutes(parts: AppParts) {
  const lists: [Group, unknown][] = [
    [contract.vehicleTypes, chargeResources['vehicle-types']],
    [contract.gearboxTypes as unknown as Group, chargeResources['gearbox-types']],
    [contract.rollingStatusTypes as unknown as Group, chargeResources['rolling-status-types']],
    [contract.surcharges as unknown as Group, chargeResources.surcharges],
    [contract.passengerCharges as unknown as Group, chargeResources['passenger-charges']],
  ];
  // One app of them all: the first list's, with the others' routes (and their documentation) added to it.
  const [first, ...others] = lists.map(([group, resource]) => listRoutes(parts, group, resource as AnyResource));
  for (const app of others) first.route('/', app);
  return first;
}
