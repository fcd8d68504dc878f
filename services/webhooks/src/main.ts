import { createLogger } from '@pwa/logging';
import { runUntilSignalled } from '@pwa/runtime';
import { readWebhooksConfig } from './config';
import { startWebhooksService } from './service';

const config = readWebhooksConfig(process.env);
const logger = createLogger({ service: 'webhooks', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
runUntilSignalled(() => startWebhooksService(config), logger, {
  drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
});
