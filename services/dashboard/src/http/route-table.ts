import path from 'node:path';
import type { Express } from 'express';
import { mountConsolePages } from '@pwa/web-auth';
import type { PartnerApi } from '../upstream/partner-api';
import type { PeopleDependencies } from '../use-cases/people-dependencies';
import { mountBulkRoutes } from './bulk-routes';
import { mountCredentialRoutes } from './credential-routes';
import { consoleHeaders } from './member-session';
import { mountPartnerActionRoutes } from './partner-action-routes';
import { mountPartnerDataRoutes } from './partner-data-routes';
import { mountPasskeyRoutes } from './passkey-routes';
import { mountPeopleRoutes } from './people-routes';
import { mountTeamRoutes } from './team-routes';

/** Where `vite build` puts the dashboard's pages (services/dashboard/dist/console), beside the compiled server. */
export const consoleBuildDirectory = path.join(__dirname, '..', 'console');

/** The dashboard's route table: its API under /api (people and their passkeys, team and audit log, the partner's data), then its pages. */
export function mountDashboardRoutes(app: Express, context: { deps: PeopleDependencies; consoleOrigin: string; partnerApi: PartnerApi; environment: string }): void {
  const { deps, consoleOrigin, partnerApi, environment } = context;
  app.use('/api', consoleHeaders());
  mountPeopleRoutes(app, deps, consoleOrigin);
  mountPasskeyRoutes(app, deps, consoleOrigin);
  mountTeamRoutes(app, deps, consoleOrigin);
  mountPartnerDataRoutes(app, deps, consoleOrigin, partnerApi);
  mountBulkRoutes(app, deps, consoleOrigin, partnerApi);
  mountCredentialRoutes(app, deps, consoleOrigin, partnerApi);
  mountPartnerActionRoutes(app, deps, consoleOrigin, partnerApi, environment);
  mountConsolePages(app, consoleBuildDirectory);
}
