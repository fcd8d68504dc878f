import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { readDashboardConfig } from './config';

const config = readDashboardConfig();
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook them.
const telemetry = startServiceTelemetry('dashboard', config);
const logger = createLogger({ service: 'dashboard', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'dashboard', logger, telemetry, config, start: async () => (await import('./service')).startDashboardService(config) }),
);
