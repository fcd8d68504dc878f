import { createLogger } from '@pwa/logging';
import { runUntilSignalled } from '@pwa/runtime';
import { readDisbursementsConfig } from './config';
import { startDisbursementsService } from './service';

const config = readDisbursementsConfig(process.env);
const logger = createLogger({ service: 'disbursements', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
runUntilSignalled(() => startDisbursementsService(config), logger);
