import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK, resources } from '@opentelemetry/sdk-node';

export interface TelemetryOptions {
  serviceName: string;
  /** "sandbox" or "production"; recorded as deployment.environment.name on every span. */
  environment: string;
  /**
   * Base URL of the OTLP/HTTP collector, e.g. http://otel-collector:4318 ("/v1/traces" is added
   * unless already there). When absent, the exporter's own default and OTEL_EXPORTER_OTLP_* apply.
   */
  otlpEndpoint?: string;
  enabled: boolean;
}

export interface Telemetry {
  /** Flushes spans still buffered and unregisters the SDK. Safe to call more than once. */
  shutdown(): Promise<void>;
}

/** Operational probes would drown real traffic in traces without telling anything. */
const untracedPaths = new Set(['/healthz', '/readyz', '/metrics']);

const disabledTelemetry: Telemetry = { shutdown: () => Promise.resolve() };

let startedTelemetry: Telemetry | undefined;

/**
 * Starts the OpenTelemetry SDK with HTTP instrumentation and an OTLP/HTTP trace exporter. Call it
 * first thing in main.ts, before express or http are imported, because instrumentation patches
 * modules as they load. A second call returns the first handle: two SDKs would export every span
 * twice.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (!options.enabled) return disabledTelemetry;
  if (startedTelemetry) return startedTelemetry;
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    resource: resources.resourceFromAttributes({
      'service.name': options.serviceName,
      'deployment.environment.name': options.environment,
    }),
    traceExporter: new OTLPTraceExporter(options.otlpEndpoint === undefined ? {} : { url: tracesUrl(options.otlpEndpoint) }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => untracedPaths.has((request.url ?? '').split('?')[0] ?? ''),
      }),
    ],
  });
  sdk.start();
  let shutdownPromise: Promise<void> | undefined;
  startedTelemetry = {
    shutdown: () => {
      shutdownPromise ??= sdk.shutdown().finally(() => {
        startedTelemetry = undefined;
      });
      return shutdownPromise;
    },
  };
  return startedTelemetry;
}

function tracesUrl(otlpEndpoint: string): string {
  const base = otlpEndpoint.replace(/\/+$/, '');
  return base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
}
