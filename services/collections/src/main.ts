import { createLogger } from '@pwa/logging';
import { runUntilSignalled } from '@pwa/runtime';
import { readCollectionsConfig } from './config';
import { startCollectionsService } from './service';

const config = readCollectionsConfig(process.env);
const logger = createLogger({ service: 'collections', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
runUntilSignalled(() => startCollectionsService(config), logger, {
  drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
});
