export { startTelemetry, type Telemetry, type TelemetryOptions } from './start-telemetry';
export { currentTraceparent, runWithTraceparent } from './trace-context';
