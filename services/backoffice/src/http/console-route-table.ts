import path from 'node:path';
import type { Express } from 'express';
import { mountConsolePages } from '@pwa/web-auth';
import type { Logger } from '@pwa/logging';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import type { AdminClients } from '../wiring/admin-clients';
import { mountApprovalRoutes } from './approval-routes';
import { mountAuditLogRoutes } from './audit-log-routes';
import { consoleHeaders } from './console-session';
import { mountLedgerReadRoutes } from './ledger-read-routes';
import { mountOperatorRoutes } from './operator-routes';
import { mountPartnerActionRoutes } from './partner-action-routes';
import { mountPartnerReadRoutes } from './partner-read-routes';
import { mountPeopleRoutes } from './people-routes';
import { mountPersonalTokenRoutes } from './personal-token-routes';
import { mountWebhookDeliveryRoutes } from './webhook-delivery-routes';

/** Where `vite build` puts the console (services/backoffice/dist/console), beside the compiled server. */
export const consoleBuildDirectory = path.join(__dirname, '..', 'console');

/** What the console's routes are made with, once at start. */
export interface ConsoleRouteContext {
  deps: PeopleDependencies;
  /** The console's own origin: state changes from any other are refused. */
  consoleOrigin: string;
  upstream: AdminClients;
  /** Runs the approved-requests sweep now (an approval that could not execute at once). */
  wakeBacklog: () => void;
  logger: Logger;
}

/** The back-office's route table: the console API under /api, then the console's pages. */
export function mountConsoleRoutes(app: Express, context: ConsoleRouteContext): void {
  const { deps, consoleOrigin, upstream, wakeBacklog, logger } = context;
  app.use('/api', consoleHeaders());
  mountPeopleRoutes(app, deps, consoleOrigin);
  mountPersonalTokenRoutes(app, deps, consoleOrigin);
  mountApprovalRoutes(app, deps, consoleOrigin, { ports: upstream, targets: upstream.targets, wakeBacklog, logger });
  mountAuditLogRoutes(app, deps, consoleOrigin);
  mountOperatorRoutes(app, deps, consoleOrigin);
  mountPartnerReadRoutes(app, deps, consoleOrigin, upstream.partners);
  mountPartnerActionRoutes(app, deps, consoleOrigin, upstream.partnerActions, upstream.dashboard);
  mountWebhookDeliveryRoutes(app, deps, consoleOrigin, upstream.webhooks);
  mountLedgerReadRoutes(app, deps, consoleOrigin, { wallet: upstream.wallet, partners: upstream.partners });
  mountConsolePages(app, consoleBuildDirectory);
}
