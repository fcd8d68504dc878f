import path from 'node:path';
import { hostService, type HostedService } from '@pwa/runtime';
import type { WebhooksConfig } from './config';

export const webhooksSchema = 'webhooks';

/** Starts the webhooks service. Its business endpoints arrive with their own issue; for now it answers health, readiness and metrics. */
export function startWebhooksService(config: Readonly<WebhooksConfig>): Promise<HostedService> {
  return hostService({
    name: 'webhooks',
    schema: webhooksSchema,
    migrationsDirectory: path.join(__dirname, '..', 'migrations'),
    env: config,
    port: config.PORT,
  });
}
