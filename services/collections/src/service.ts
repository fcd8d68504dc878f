import path from 'node:path';
import { hostService, type HostedService } from '@pwa/runtime';
import type { CollectionsConfig } from './config';

export const collectionsSchema = 'collections';

/** Starts the collections service. Its business endpoints arrive with their own issue; for now it answers health, readiness and metrics. */
export function startCollectionsService(config: Readonly<CollectionsConfig>): Promise<HostedService> {
  return hostService({
    name: 'collections',
    schema: collectionsSchema,
    migrationsDirectory: path.join(__dirname, '..', 'migrations'),
    env: config,
    port: config.PORT,
  });
}
