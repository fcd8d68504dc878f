import type * as HttpInstrumentationModule from '@opentelemetry/instrumentation-http';
import type * as OtlpTraceExporterModule from '@opentelemetry/exporter-trace-otlp-http';
import type * as SdkNodeModule from '@opentelemetry/sdk-node';

export interface TelemetryOptions {
  serviceName: string;
  /** "sandbox" or "production"; recorded as deployment.environment.name on every span. */
  environment: string;
  /**
   * Base URL of the OTLP/HTTP collector, e.g. http://otel-collector:4318 ("/v1/traces" is added
   * unless already there). When absent, the standard OTEL_* variables choose the exporter
   * (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL, ...).
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
 * Starts the OpenTelemetry SDK with HTTP instrumentation and an OTLP trace exporter. Call it first
 * thing in main.ts, before express or http are imported, because instrumentation patches modules
 * as they load. A second call returns the first handle: two SDKs would export every span twice.
 * When the SDK was already started by the preload (`--require @pwa/telemetry/register`), even a
 * disabled call returns that handle, so the service's stop still flushes the last spans.
 * OTEL_SDK_DISABLED=true keeps the SDK off whatever `enabled` says.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  if (startedTelemetry) return startedTelemetry;
  if (!options.enabled) return disabledTelemetry;
  return startSdk(options);
}

/**
 * Starts the SDK from the standard variables alone (OTEL_SERVICE_NAME, OTEL_TRACES_EXPORTER,
 * OTEL_EXPORTER_OTLP_*, OTEL_BSP_*, OTEL_SDK_DISABLED): what the preload does.
 */
export function startTelemetryFromEnvironment(): Telemetry {
  return startedTelemetry ?? startSdk({});
}

/**
 * The SDK, its exporter and the HTTP instrumentation take about 250 ms to load, and telemetry is
 * off by default: loading them only when the SDK starts keeps that cost off every operator CLI
 * call (their use cases import the bus, which imports this module) and off every service that
 * runs with OTEL_ENABLED=false. Nothing is patched by loading them: the instrumentation patches
 * http when it is constructed, here, at the same point of main.ts as before.
 */
function loadSdkModules(): { sdkNode: typeof SdkNodeModule; exporter: typeof OtlpTraceExporterModule; httpInstrumentation: typeof HttpInstrumentationModule } {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return {
    sdkNode: require('@opentelemetry/sdk-node') as typeof SdkNodeModule,
    exporter: require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpTraceExporterModule,
    httpInstrumentation: require('@opentelemetry/instrumentation-http') as typeof HttpInstrumentationModule,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

function startSdk(options: Partial<TelemetryOptions>): Telemetry {
  const { sdkNode, exporter, httpInstrumentation } = loadSdkModules();
  const { NodeSDK, resources } = sdkNode;
  const { OTLPTraceExporter } = exporter;
  const { HttpInstrumentation } = httpInstrumentation;
  const attributes: Record<string, string> = {};
  if (options.serviceName !== undefined) attributes['service.name'] = options.serviceName;
  if (options.environment !== undefined) attributes['deployment.environment.name'] = options.environment;
  const sdk = new NodeSDK({
    ...(options.serviceName === undefined ? {} : { serviceName: options.serviceName }),
    ...(Object.keys(attributes).length === 0 ? {} : { resource: resources.resourceFromAttributes(attributes) }),
    // Without an explicit endpoint the SDK builds the exporter from OTEL_TRACES_EXPORTER and friends.
    ...(options.otlpEndpoint === undefined ? {} : { traceExporter: new OTLPTraceExporter({ url: tracesUrl(options.otlpEndpoint) }) }),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => untracedPaths.has((request.url ?? '').split('?')[0] ?? ''),
      }),
    ],
  });
  sdk.start();
  let shutdownPromise: Promise<void> | undefined;
  const telemetry: Telemetry = {
    shutdown: () => {
      shutdownPromise ??= sdk.shutdown().finally(() => {
        startedTelemetry = undefined;
      });
      return shutdownPromise;
    },
  };
  startedTelemetry = telemetry;
  return telemetry;
}

function tracesUrl(otlpEndpoint: string): string {
  const base = otlpEndpoint.replace(/\/+$/, '');
  return base.endsWith('/v1/traces') ? base : `${base}/v1/traces`;
}

/** The telemetry settings every service's configuration carries (OTEL_ENABLED off by default). */
export interface ServiceTelemetryConfig {
  ENVIRONMENT: string;
  OTEL_ENABLED: boolean;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
}

/** startTelemetry with a service's configuration; call it first in main.ts, before express loads. */
export function startServiceTelemetry(serviceName: string, config: ServiceTelemetryConfig): Telemetry {
  return startTelemetry({
    serviceName,
    environment: config.ENVIRONMENT,
    enabled: config.OTEL_ENABLED,
    ...(config.OTEL_EXPORTER_OTLP_ENDPOINT === undefined ? {} : { otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT }),
  });
}
