import type { Message, Options } from 'amqplib';

/**
 * The broker's bookkeeping on a dead letter: why and where it died (x-death and the first/last
 * death summaries) and how often it was delivered. A replayed message must not carry it, or the
 * original queue's delivery limit would not start over.
 */
const bookkeepingHeaders = new Set(['x-death', 'x-delivery-count', 'x-acquired-count']);
const bookkeepingPrefixes = ['x-first-death-', 'x-last-death-'];

export function isBookkeepingHeader(name: string): boolean {
  return bookkeepingHeaders.has(name) || bookkeepingPrefixes.some((prefix) => name.startsWith(prefix));
}

/** The headers a dead letter carried when it was first published (the broker's bookkeeping removed). */
export function originalHeadersOf(message: Pick<Message, 'properties'>): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message.properties.headers ?? {})) {
    if (!isBookkeepingHeader(name)) headers[name] = value;
  }
  return headers;
}

interface DeathRecord {
  queue?: unknown;
  reason?: unknown;
}

/**
 * The queue a dead letter died in, which is where a replay returns it. RabbitMQ lists deaths most
 * recent first in x-death; x-last-death-queue (3.13+) says the same directly.
 */
export function originQueueOf(message: Pick<Message, 'properties'>): string | undefined {
  const headers = message.properties.headers ?? {};
  const lastQueue: unknown = headers['x-last-death-queue'];
  if (typeof lastQueue === 'string' && lastQueue !== '') return lastQueue;
  const latest = latestDeathOf(headers);
  if (typeof latest?.queue === 'string' && latest.queue !== '') return latest.queue;
  const firstQueue: unknown = headers['x-first-death-queue'];
  return typeof firstQueue === 'string' && firstQueue !== '' ? firstQueue : undefined;
}

/** rejected (a consumer refused it), delivery_limit, expired, maxlen; unknown when the broker said nothing. */
export function deathReasonOf(message: Pick<Message, 'properties'>): string {
  const headers = message.properties.headers ?? {};
  const lastReason: unknown = headers['x-last-death-reason'];
  if (typeof lastReason === 'string' && lastReason !== '') return lastReason;
  const latest = latestDeathOf(headers);
  return typeof latest?.reason === 'string' && latest.reason !== '' ? latest.reason : 'unknown';
}

function latestDeathOf(headers: Record<string, unknown>): DeathRecord | undefined {
  const deaths: unknown = headers['x-death'];
  if (!Array.isArray(deaths)) return undefined;
  const latest: unknown = deaths[0];
  return typeof latest === 'object' && latest !== null ? latest : undefined;
}

/**
 * Publish options that give the replayed message the body's companions as first published: the
 * same properties and headers, without the death bookkeeping. userId is left out because the
 * broker refuses one that is not the replaying connection's user; mandatory makes an unroutable
 * replay (the queue was deleted meanwhile) come back instead of vanishing.
 */
export function replayPublishOptions(message: Pick<Message, 'properties'>): Options.Publish {
  const properties = message.properties;
  const options: Options.Publish = { mandatory: true, headers: originalHeadersOf(message) };
  const copy = <K extends keyof Options.Publish>(key: K, value: unknown): void => {
    if (value !== undefined && value !== null) options[key] = value;
  };
  copy('contentType', properties.contentType);
  copy('contentEncoding', properties.contentEncoding);
  copy('deliveryMode', properties.deliveryMode);
  copy('priority', properties.priority);
  copy('correlationId', properties.correlationId);
  copy('replyTo', properties.replyTo);
  copy('expiration', properties.expiration);
  copy('messageId', properties.messageId);
  copy('timestamp', properties.timestamp);
  copy('type', properties.type);
  copy('appId', properties.appId);
  return options;
}
