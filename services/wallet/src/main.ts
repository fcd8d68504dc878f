import { createLogger } from '@pwa/logging';
import { startTelemetry } from '@pwa/telemetry';
import { readWalletConfig } from './config';

const config = readWalletConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the service are imported only afterwards.
const telemetry = startTelemetry({
  serviceName: 'wallet',
  environment: config.ENVIRONMENT,
  enabled: config.OTEL_ENABLED,
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const logger = createLogger({ service: 'wallet', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runUntilSignalled, stopInOrder }) =>
  runUntilSignalled(
    async () => {
      const { startWalletService } = await import('./service');
      const service = await startWalletService(config);
      // Telemetry goes last, so the spans of the work finished during the stop are still exported.
      const shutdownSteps = [
        ...(service.shutdownSteps ?? [{ name: 'wallet', run: service.stop }]),
        { name: 'telemetry', run: () => telemetry.shutdown() },
      ];
      return { stop: stopInOrder(shutdownSteps, logger), shutdownSteps };
    },
    logger,
    { drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  ),
);
