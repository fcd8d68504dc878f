export { startTelemetry, startTelemetryFromEnvironment, type Telemetry, type TelemetryOptions } from './start-telemetry';
export { currentTraceparent, isValidTraceparent, newTraceparent, runInTraceOrNewTrace, runWithTraceparent } from './trace-context';
export { inSpan, type SpanKindName } from './spans';
