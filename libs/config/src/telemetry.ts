import { z } from 'zod';
import { fields } from './fields';

/** The trace settings, the same in every service and the gateway (libs/telemetry startServiceTelemetry reads them). */
export const telemetryConfigFields = {
  /** Traces: off unless set; the exporter follows the standard OTEL_* variables (docs/operations.md). */
  OTEL_ENABLED: fields.boolean(false),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
};
