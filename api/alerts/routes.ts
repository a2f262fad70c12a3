// Lead alerts and retention (decision 016): the operator's settings and the alerts sent or waiting;
// the rules are api/alerts/service.ts's.
import { currentUser } from '../auth/session';
import { contract } from '../contract';
import { serve, type AppParts } from '../routes';

export function alertRoutes(parts: AppParts) {
  const { alerts } = parts;
  return serve(parts, contract.alerts, {
    settings: (c) => c.json(alerts.settings(currentUser(c).companyId), 200),
    updateSettings: async (c) => c.json(await alerts.update(currentUser(c), c.req.valid('json')), 200),
    verifyRecipient: async (c) => c.json(await alerts.verifyRecipient(currentUser(c)), 200),
    recent: (c) => c.json(alerts.recent(currentUser(c).companyId), 200),
  });
}
