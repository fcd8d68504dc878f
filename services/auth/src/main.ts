import { createLogger } from '@pwa/logging';
import { runUntilSignalled } from '@pwa/runtime';
import { startTelemetry } from '@pwa/telemetry';
import { readAuthConfig } from './config';

const config = readAuthConfig(process.env);
// Telemetry starts before the HTTP stack is loaded, so its instrumentation can hook it.
const telemetry = startTelemetry({
  serviceName: 'auth',
  environment: config.ENVIRONMENT,
  enabled: config.OTEL_ENABLED,
  otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const logger = createLogger({ service: 'auth', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });
runUntilSignalled(async () => {
  const { startAuthService } = await import('./service');
  const service = await startAuthService(config);
  return {
    stop: async () => {
      await service.stop();
      await telemetry.shutdown();
    },
  };
}, logger);
