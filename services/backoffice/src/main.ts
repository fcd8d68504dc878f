import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { readBackofficeConfig } from './config';

const config = readBackofficeConfig();
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook them.
const telemetry = startServiceTelemetry('backoffice', config);
const logger = createLogger({ service: 'backoffice', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'backoffice', logger, telemetry, config, start: async () => (await import('./service')).startBackofficeService(config) }),
);
