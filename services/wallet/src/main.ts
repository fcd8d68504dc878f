import { createLogger } from '@pwa/logging';
import { runUntilSignalled } from '@pwa/runtime';
import { readWalletConfig } from './config';
import { startWalletService } from './service';

const config = readWalletConfig(process.env);
const logger = createLogger({ service: 'wallet', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
runUntilSignalled(() => startWalletService(config), logger, {
  drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
});
