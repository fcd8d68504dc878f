import { warnOfRenamedKeys } from '@pwa/config';
import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { disbursementsRenamedKeys, readDisbursementsConfig } from './config';

const config = readDisbursementsConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startServiceTelemetry('disbursements', config);
const logger = createLogger({ service: 'disbursements', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
warnOfRenamedKeys(logger, process.env, disbursementsRenamedKeys);

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({ name: 'disbursements', logger, telemetry, config, start: async () => (await import('./service')).startDisbursementsService(config) }),
);
