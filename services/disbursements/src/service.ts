import path from 'node:path';
import { hostService, type HostedService } from '@pwa/runtime';
import type { DisbursementsConfig } from './config';

export const disbursementsSchema = 'disbursements';

/** Starts the disbursements service. Its business endpoints arrive with their own issue; for now it answers health, readiness and metrics. */
export function startDisbursementsService(config: Readonly<DisbursementsConfig>): Promise<HostedService> {
  return hostService({
    name: 'disbursements',
    schema: disbursementsSchema,
    migrationsDirectory: path.join(__dirname, '..', 'migrations'),
    env: config,
    port: config.PORT,
  });
}
