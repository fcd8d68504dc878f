import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

const tracer = trace.getTracer('@pwa/telemetry');

export type SpanKindName = 'internal' | 'producer' | 'consumer' | 'client' | 'server';

const spanKinds: Record<SpanKindName, SpanKind> = {
  internal: SpanKind.INTERNAL,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
  client: SpanKind.CLIENT,
  server: SpanKind.SERVER,
};

/**
 * Runs fn inside a new active span, a child of the current context, and ends it when fn settles;
 * a rejection marks the span as failed and is passed on. Without the SDK the span records nothing
 * and fn simply runs.
 */
export function inSpan<T>(name: string, kind: SpanKindName, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(name, { kind: spanKinds[kind], attributes }, async (span) => {
    try {
      return await fn();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}
