import { randomBytes } from 'node:crypto';
import { context, defaultTextMapGetter, defaultTextMapSetter, ROOT_CONTEXT } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { currentLogContext, runWithLogContext, traceIdOfTraceparent } from '@pwa/logging';

/**
 * A propagator of our own rather than the global one: the global propagator is a no-op until the
 * SDK starts, and messages must carry (and hand on) the trace context even in processes where
 * tracing is switched off, so a trace survives the hop through them.
 */
const traceContextPropagator = new W3CTraceContextPropagator();

/**
 * The W3C traceparent of the active span; without one (tracing switched off), the traceparent the
 * request or message being handled came with; undefined outside any trace. So a process that
 * records nothing still hands the trace on, and every service's log lines share its trace id.
 */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  traceContextPropagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent ?? currentLogContext()?.traceparent;
}

/**
 * Runs fn with the given traceparent as its remote parent, so spans and messages it creates join
 * that trace. An absent or malformed traceparent runs fn in a fresh root context: a bad header from
 * a peer must never stop the work itself.
 */
export function runWithTraceparent<T>(traceparent: string | undefined, fn: () => T): T {
  const valid = isValidTraceparent(traceparent) ? traceparent : undefined;
  const parent = valid === undefined ? ROOT_CONTEXT : traceContextPropagator.extract(ROOT_CONTEXT, { traceparent: valid }, defaultTextMapGetter);
  return context.with(parent, () => runWithLogContext({ traceparent: valid }, fn));
}

/**
 * Like runWithTraceparent, but work that arrives without a trace (an event an operator's command
 * caused, a delivery recorded before traces were kept) gets a new trace for its log lines, so they
 * still share one trace id. No remote parent is set: with tracing on, its spans start a new trace.
 */
export function runInTraceOrNewTrace<T>(traceparent: string | undefined, fn: () => T): T {
  if (isValidTraceparent(traceparent)) return runWithTraceparent(traceparent, fn);
  return context.with(ROOT_CONTEXT, () => runWithLogContext({ traceparent: newTraceparent() }, fn));
}

export function isValidTraceparent(traceparent: string | undefined): traceparent is string {
  return traceIdOfTraceparent(traceparent) !== undefined && !/-0{16}-/.test(traceparent ?? '');
}

/**
 * A new trace's traceparent, for a request that arrives without one while tracing is off. Marked
 * sampled, so a downstream process that does trace records its part rather than dropping it.
 */
export function newTraceparent(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}
