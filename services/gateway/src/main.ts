import { createLogger } from '@pwa/logging';
import { startTelemetry } from '@pwa/telemetry';
import { readGatewayConfig } from './config';

const config = readGatewayConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the gateway itself are imported only afterwards.
const telemetry = startTelemetry({
  serviceName: 'gateway',
  environment: config.ENVIRONMENT,
  enabled: config.OTEL_ENABLED,
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runUntilSignalled, stopInOrder }) =>
  runUntilSignalled(
    async () => {
      const { startGateway } = await import('./gateway');
      const gateway = await startGateway(config, { logger });
      // Telemetry goes last, so the spans of the work finished during the stop are still exported.
      // The gateway's stop closes both listeners, then the bus, Redis and the upstream clients.
      const shutdownSteps = [
        { name: 'gateway listeners, bus, redis', run: gateway.stop },
        { name: 'telemetry', run: () => telemetry.shutdown() },
      ];
      return { stop: stopInOrder(shutdownSteps, logger), shutdownSteps };
    },
    logger,
    { drainDelayMs: config.SHUTDOWN_DRAIN_DELAY_MS, timeoutMs: config.SHUTDOWN_TIMEOUT_MS },
  ),
);
