import { createLogger } from '@pwa/logging';
import { runUntilSignalled } from '@pwa/runtime';
import { readQuotesConfig } from './config';
import { startQuotesService } from './service';

const config = readQuotesConfig();
const logger = createLogger({ service: 'quotes', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
runUntilSignalled(() => startQuotesService(config), logger, {
  drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
});
