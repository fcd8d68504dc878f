import { warnOfRenamedKeys } from '@pwa/config';
import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { collectionsRenamedKeys, readCollectionsConfig } from './config';

const config = readCollectionsConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startServiceTelemetry('collections', config);
const logger = createLogger({ service: 'collections', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
warnOfRenamedKeys(logger, process.env, collectionsRenamedKeys);

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'collections', logger, telemetry, config, start: async () => (await import('./service')).startCollectionsService(config) }),
);
