/**
 * Preload entry: `node --require <repo>/libs/telemetry/dist/register.js services/<name>/dist/main.js`
 * (or the same in NODE_OPTIONS) starts tracing before anything else loads, configured only by the
 * standard OTEL_* variables. It lets any service be traced without a code change; the service's
 * own startTelemetry call then returns this handle, so its stop flushes the last spans.
 */
import { startTelemetryFromEnvironment } from './start-telemetry';

startTelemetryFromEnvironment();
