import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * A propagator of our own rather than the global one: the global propagator is a no-op until the
 * SDK starts, and messages must carry (and hand on) the trace context even in processes where
 * tracing is switched off, so a trace survives the hop through them.
 */
const traceContextPropagator = new W3CTraceContextPropagator();

/** The W3C traceparent of the active span, or undefined outside any trace. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  traceContextPropagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent;
}

/**
 * Runs fn with the given traceparent as its remote parent, so spans and messages it creates join
 * that trace. An absent or malformed traceparent runs fn in a fresh root context: a bad header from
 * a peer must never stop the work itself.
 */
export function runWithTraceparent<T>(traceparent: string | undefined, fn: () => T): T {
  if (traceparent === undefined) return context.with(ROOT_CONTEXT, fn);
  const extracted = traceContextPropagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
  return context.with(extracted, fn);
}
