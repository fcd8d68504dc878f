export { startTelemetry, startTelemetryFromEnvironment, startServiceTelemetry, type Telemetry, type TelemetryOptions, type ServiceTelemetryConfig } from './start-telemetry';
export { currentTraceparent, isValidTraceparent, newTraceparent, runInTraceOrNewTrace, runWithTraceparent } from './trace-context';
export { inSpan, type SpanKindName } from './spans';
