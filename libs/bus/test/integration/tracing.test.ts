import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { SpanKind, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { connectBus, enqueueEvent, processOnce, startOutboxRelay, type Bus, type OutboxRelay } from '@pwa/bus';
import { createEventEnvelope, type EventEnvelope } from '@pwa/contracts';
import { withTransaction } from '@pwa/db';
import { createLogger, runWithLogContext, type Logger } from '@pwa/logging';
import { amqpUrl, createTestDatabase, deleteTopology, eventually, uniqueExchange, type TestDatabase } from '../support/test-environment';

const exchange = uniqueExchange();
const queue = `${exchange}.tracing`;
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const logLines: Record<string, unknown>[] = [];
let logger: Logger;
let database: TestDatabase;
let bus: Bus;
let relay: OutboxRelay;
const handled = new Set<string>();

beforeAll(async () => {
  // Registers the async-local-storage context manager and the tracer, as the NodeSDK does in a service.
  provider.register();
  logger = createLogger({
    service: 'bus-tracing-test',
    level: 'info',
    destination: new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
        callback();
      },
    }),
  });
  database = await createTestDatabase();
  bus = await connectBus({ url: amqpUrl, exchange, serviceName: 'bus-tracing-test', logger });
  await bus.subscribe({
    queue,
    routingKeys: ['tracing.#'],
    kind: 'durable',
    handler: async (envelope: EventEnvelope) => {
      await processOnce(database.pool, 'tracing-test', envelope.eventId, () => Promise.resolve());
      logger.info({ eventId: envelope.eventId }, 'event handled');
      handled.add(envelope.eventId);
    },
  });
  relay = startOutboxRelay({ pool: database.pool, bus, logger, pollIntervalMs: 60_000 });
});

afterAll(async () => {
  await relay.stop();
  await bus.close();
  await deleteTopology(exchange, [queue]);
  await database.drop();
  await provider.shutdown();
});

function spanNamed(spans: ReadableSpan[], name: string): ReadableSpan {
  const found = spans.find((span) => span.name === name);
  if (!found) throw new Error(`no span named ${name}; got ${spans.map((span) => span.name).join(', ')}`);
  return found;
}

describe('a trace across the outbox, the relay and the broker', () => {
  test('when an event is enqueued inside a traced request, then the relay publishes it in a producer span below the request and the consumer handles it in a consumer span below that, with the request id on its log lines', async () => {
    const envelope = createEventEnvelope({ type: 'tracing.checked', data: { value: randomUUID() }, producer: 'bus-test' });
    const requestId = `req-${randomUUID()}`;
    const tracer = trace.getTracer('tracing-test');
    await runWithLogContext({ requestId }, () =>
      tracer.startActiveSpan('partner request', { kind: SpanKind.SERVER }, async (span) => {
        await withTransaction(database.pool, (client) => enqueueEvent(client, envelope));
        span.end();
      }),
    );

    await relay.flushNow();
    expect(await eventually(() => handled.has(envelope.eventId))).toBe(true);
    expect(await eventually(() => exporter.getFinishedSpans().some((span) => span.name === 'process tracing.checked'))).toBe(true);

    const spans = exporter.getFinishedSpans();
    const request = spanNamed(spans, 'partner request');
    const producer = spanNamed(spans, 'publish tracing.checked');
    const consumer = spanNamed(spans, 'process tracing.checked');
    const traceId = request.spanContext().traceId;
    expect(producer.spanContext().traceId).toBe(traceId);
    expect(consumer.spanContext().traceId).toBe(traceId);
    expect(producer.kind).toBe(SpanKind.PRODUCER);
    expect(consumer.kind).toBe(SpanKind.CONSUMER);
    expect(producer.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(consumer.parentSpanContext?.spanId).toBe(producer.spanContext().spanId);

    const handledLine = logLines.find((line) => line.msg === 'event handled' && line.eventId === envelope.eventId);
    expect(handledLine).toMatchObject({ service: 'bus-tracing-test', requestId, traceId, spanId: consumer.spanContext().spanId });
  });
});
