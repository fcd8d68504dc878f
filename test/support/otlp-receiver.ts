/**
 * A tiny OTLP/HTTP trace receiver in the test process: the services' exporters POST
 * ExportTraceServiceRequest as JSON (OTEL_EXPORTER_OTLP_PROTOCOL=http/json, ids in hex) to
 * /v1/traces, and the receiver keeps every span with the service that sent it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { internalServiceNames, repoRoot, type InternalServiceName, type StackOptions } from './stack';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port> (the exporters add /v1/traces). */
  endpoint: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpAnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpKeyValue[];
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: OtlpKeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function valueOf(value: OtlpAnyValue | undefined): unknown {
  if (!value) return undefined;
  return value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((entry) => [entry.key, valueOf(entry.value)]));
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      try {
        const raw = Buffer.concat(chunks);
        const text = (req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
        const request = JSON.parse(text) as OtlpRequest;
        for (const resourceSpans of request.resourceSpans ?? []) {
          const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
          const service = typeof serviceName === 'string' ? serviceName : 'unknown';
          for (const scope of resourceSpans.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId ?? '',
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
              });
            }
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * What a stack needs to trace every process into the receiver, with only the standard OTEL_*
 * variables: the telemetry preload (so services whose main.ts starts no SDK are traced too), the
 * service name, JSON over HTTP, and a short batch delay so spans arrive within the test.
 */
export function tracedStackOptions(receiver: OtlpReceiver, options: StackOptions = {}): StackOptions {
  const envFor = (serviceName: string): Record<string, string> => ({
    NODE_OPTIONS: `--require ${path.join(repoRoot, 'libs', 'telemetry', 'dist', 'register.js')}`,
    OTEL_SERVICE_NAME: serviceName,
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    OTEL_METRICS_EXPORTER: 'none',
    OTEL_LOGS_EXPORTER: 'none',
  });
  const serviceEnv: Partial<Record<InternalServiceName, Record<string, string>>> = {};
  for (const name of internalServiceNames) serviceEnv[name] = { ...envFor(name), ...options.serviceEnv?.[name] };
  return { ...options, gatewayEnv: { ...envFor('gateway'), ...options.gatewayEnv }, serviceEnv };
}
