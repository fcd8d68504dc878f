import { warnOfRenamedKeys } from '@pwa/config';
import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { quotesRenamedKeys, readQuotesConfig } from './config';

const config = readQuotesConfig();
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startServiceTelemetry('quotes', config);
const logger = createLogger({ service: 'quotes', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
warnOfRenamedKeys(logger, process.env, quotesRenamedKeys);

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'quotes', logger, telemetry, config, start: async () => (await import('./service')).startQuotesService(config) }),
);
