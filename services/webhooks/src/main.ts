import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { readWebhooksConfig } from './config';

const config = readWebhooksConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startServiceTelemetry('webhooks', config);
const logger = createLogger({ service: 'webhooks', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'webhooks', logger, telemetry, config, start: async () => (await import('./service')).startWebhooksService(config) }),
);
