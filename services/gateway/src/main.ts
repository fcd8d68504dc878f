import { createLogger } from '@pwa/logging';
import { startServiceTelemetry } from '@pwa/telemetry';
import { readGatewayConfig } from './config';

const config = readGatewayConfig(process.env);
// Telemetry starts before anything loads node:http or express, so its instrumentation can hook
// them; that is why the runtime and the gateway itself are imported only afterwards.
const telemetry = startServiceTelemetry('gateway', config);
const logger = createLogger({ service: 'gateway', level: config.LOG_LEVEL, environment: config.ENVIRONMENT });

void import('@pwa/runtime').then(({ runServiceProcess }) =>
  runServiceProcess({
    name: 'gateway',
    logger,
    telemetry,
    config,
    start: async () => {
      const { startGateway } = await import('./gateway');
      const gateway = await startGateway(config, { logger });
      // The gateway's stop closes both listeners, then the bus, Redis and the upstream clients.
      return { stop: gateway.stop, shutdownSteps: [{ name: 'gateway listeners, bus, redis', run: gateway.stop }] };
    },
  }),
);
