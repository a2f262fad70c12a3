// Lead alerts and retention (decision 016): the operator's settings and the alerts sent or waiting;
// the rules are api/alerts/service.ts's.
import { ContractHono } from '../platform/http/contract-hono';
import { currentUser } from '../auth/session';
import type { AlertService } from '../alerts/service';
import type { AppEnv } from '../platform/http/context';
import { routes } from '../routes';

export function alertRoutes(alerts: AlertService) {
  return new ContractHono<AppEnv>()
    .openapi(routes.alerts.settings, (c) => c.json(alerts.settings(currentUser(c).companyId), 200))
    .openapi(routes.alerts.updateSettings, async (c) => c.json(await alerts.update(currentUser(c), c.req.valid('json')), 200))
    .openapi(routes.alerts.verifyRecipient, async (c) => c.json(await alerts.verifyRecipient(currentUser(c)), 200))
    .openapi(routes.alerts.recent, (c) => c.json(alerts.recent(currentUser(c).companyId), 200));
}
