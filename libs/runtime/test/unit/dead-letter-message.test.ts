import type { MessageProperties } from 'amqplib';
import { deathReasonOf, originQueueOf, originalHeadersOf, replayPublishOptions } from '../../src/dead-letters/dead-letter-message';

/** Headers as the broker may send them (amqplib's XDeath type is narrower than what RabbitMQ sends: delivery_limit, partial records). */
function messageWith(given: Omit<Partial<MessageProperties>, 'headers'> & { headers?: Record<string, unknown> }): { properties: MessageProperties } {
  const properties = { ...given, headers: given.headers };
  const empty: MessageProperties = {
    contentType: undefined,
    contentEncoding: undefined,
    headers: undefined,
    deliveryMode: undefined,
    priority: undefined,
    correlationId: undefined,
    replyTo: undefined,
    expiration: undefined,
    messageId: undefined,
    timestamp: undefined,
    type: undefined,
    userId: undefined,
    appId: undefined,
    clusterId: undefined,
  };
  return { properties: { ...empty, ...properties } };
}

const deadLetter = messageWith({
  contentType: 'application/json',
  deliveryMode: 2,
  messageId: 'event-1',
  type: 'collection.completed',
  appId: 'collections',
  timestamp: 1_700_000_000,
  userId: 'guest',
  headers: {
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    'x-death': [
      { queue: 'pwa.events.webhooks.transaction-events', reason: 'delivery_limit', count: 1, exchange: 'pwa.events', 'routing-keys': ['collection.completed'] },
      { queue: 'older.queue', reason: 'rejected', count: 1 },
    ],
    'x-first-death-queue': 'older.queue',
    'x-first-death-reason': 'rejected',
    'x-first-death-exchange': 'pwa.events',
    'x-delivery-count': 5,
  },
});

describe('dead letter messages', () => {
  it('when x-death lists several deaths, then the origin is the most recent one (the first entry)', () => {
    expect(originQueueOf(deadLetter)).toBe('pwa.events.webhooks.transaction-events');
    expect(deathReasonOf(deadLetter)).toBe('delivery_limit');
  });

  it('when the broker set x-last-death-queue, then it wins', () => {
    const message = messageWith({ headers: { 'x-last-death-queue': 'q.last', 'x-last-death-reason': 'rejected', 'x-death': [{ queue: 'q.other' }] } });
    expect(originQueueOf(message)).toBe('q.last');
    expect(deathReasonOf(message)).toBe('rejected');
  });

  it('when the message carries no death record, then its origin is unknown', () => {
    expect(originQueueOf(messageWith({ headers: { traceparent: 'x' } }))).toBeUndefined();
    expect(deathReasonOf(messageWith({}))).toBe('unknown');
  });

  it('when replayed, then the publisher headers stay and every death and delivery count header is dropped', () => {
    expect(originalHeadersOf(deadLetter)).toEqual({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  });

  it('when replayed, then the properties are kept except userId, and the publish is mandatory', () => {
    expect(replayPublishOptions(deadLetter)).toEqual({
      mandatory: true,
      headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
      contentType: 'application/json',
      deliveryMode: 2,
      messageId: 'event-1',
      type: 'collection.completed',
      appId: 'collections',
      timestamp: 1_700_000_000,
    });
  });
});
