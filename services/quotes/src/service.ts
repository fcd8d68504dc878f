import path from 'node:path';
import { hostService, type HostedService } from '@pwa/runtime';
import type { QuotesConfig } from './config';

export const quotesSchema = 'quotes';

/** Starts the quotes service. Its business endpoints arrive with their own issue; for now it answers health, readiness and metrics. */
export function startQuotesService(config: Readonly<QuotesConfig>): Promise<HostedService> {
  return hostService({
    name: 'quotes',
    schema: quotesSchema,
    migrationsDirectory: path.join(__dirname, '..', 'migrations'),
    env: config,
    port: config.PORT,
  });
}
