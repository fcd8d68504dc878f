import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { readAuthConfig } from './config';

const config = readAuthConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startServiceTelemetry('auth', config);
const logger = createLogger({ service: 'auth', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'auth', logger, telemetry, config, start: async () => (await import('./service')).startAuthService(config) }),
);
