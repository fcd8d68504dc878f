import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventEmitter } from 'node:events';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * What every log line written while handling one request or one message is tagged with, so the
 * lines of one partner request can be found in every service's log.
 */
export interface LogContext {
  /** The x-request-id of the partner request (or the request id an event carried). */
  requestId?: string | undefined;
  /**
   * The W3C traceparent of the work in hand. It matters when no span records that work (tracing
   * switched off): the trace id still ties the lines of every service together.
   */
  traceparent?: string | undefined;
}

/** The fields the logger adds to each line: request id, trace id and, while a span is active, its id. */
export interface LogContextFields {
  requestId?: string;
  traceId?: string;
  spanId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();
const traceparentFormat = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-[\da-f]{2}$/;
const invalidTraceId = '0'.repeat(32);

/** The context of the request or message being handled, or undefined outside any. */
export function currentLogContext(): LogContext | undefined {
  return storage.getStore();
}

/**
 * Runs fn with the given fields over those of the surrounding context (a field given as undefined
 * clears it), and returns what fn returns. Everything fn starts, awaited or not, sees them.
 */
export function runWithLogContext<T>(fields: LogContext, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, fn);
}

/**
 * Makes an emitter's listeners run in the current log context. A request's body arrives through
 * events of the connection, which started before the request's context existed; without this, a
 * body parser's callback (and everything after it) would run outside the request's context.
 */
export function bindEmitterToLogContext(emitter: EventEmitter): void {
  const store = storage.getStore();
  if (store === undefined) return;
  const emit = emitter.emit.bind(emitter);
  emitter.emit = (eventName: string | symbol, ...args: unknown[]): boolean => storage.run(store, () => emit(eventName, ...args));
}

/** The trace id of a W3C traceparent, or undefined when it is not a valid one. */
export function traceIdOfTraceparent(traceparent: string | undefined): string | undefined {
  if (traceparent === undefined) return undefined;
  const traceId = traceparentFormat.exec(traceparent)?.[1];
  return traceId === undefined || traceId === invalidTraceId ? undefined : traceId;
}

/**
 * The correlation fields of the current moment: the active span's trace and span id when there is
 * one (tracing on), otherwise the trace id of the context's traceparent; and the request id.
 */
export function logContextFields(): LogContextFields {
  const store = storage.getStore();
  const fields: LogContextFields = {};
  if (store?.requestId !== undefined) fields.requestId = store.requestId;
  const spanContext = trace.getSpanContext(context.active());
  if (spanContext !== undefined && isSpanContextValid(spanContext)) {
    fields.traceId = spanContext.traceId;
    fields.spanId = spanContext.spanId;
    return fields;
  }
  const traceId = traceIdOfTraceparent(store?.traceparent);
  if (traceId !== undefined) fields.traceId = traceId;
  return fields;
}
