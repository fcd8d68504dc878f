import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { readWalletConfig } from './config';

const config = readWalletConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startServiceTelemetry('wallet', config);
const logger = createLogger({ service: 'wallet', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'wallet', logger, telemetry, config, start: async () => (await import('./service')).startWalletService(config) }),
);
