import { randomUUID } from 'node:crypto';
import {
  collectionEventTypes,
  collectionStatusOfEvent,
  createEventEnvelope,
  disbursementEventTypes,
  isCollectionEventType,
  isContractViolation,
  isDisbursementEventType,
  parseCollectionEvent,
  parseCollectionEventData,
  parseDisbursementEvent,
  parseDisbursementEventData,
  type CollectionEventData,
  type CollectionEventType,
  type DisbursementEventData,
  type DisbursementEventType,
} from '@pwa/contracts';

function violationOf(action: () => unknown): { problems: string[] } {
  try {
    action();
  } catch (error) {
    if (isContractViolation(error)) return error as { problems: string[] };
    throw error;
  }
  throw new Error('expected a contract violation');
}

function collectionData(event: CollectionEventType, eventId: string = randomUUID()): CollectionEventData {
  return {
    eventId,
    event,
    partnerId: randomUUID(),
    referenceId: 'PKC-1714521600000-00112233445566778899AABBCCDDEEFF',
    externalId: 'order-17',
    amount: 125.5,
    currency: 'LRD',
    fee: 1.25,
    status: collectionStatusOfEvent[event],
    timestamp: '2024-05-01T00:00:01.000Z',
    ...(event === 'collection.completed' ? { transactionId: 'TXN-0A1B2C' } : {}),
    ...(event === 'collection.requested' ? { phone: '+231770000001', note: 'Invoice 17' } : {}),
    ...(event === 'collection.failed' ? { failureCode: 'PKC_4001' } : {}),
  };
}

const reversal = { transactionId: 'TXN-DEF456', amount: 10.5, currency: 'USD', reversedAt: '2024-05-02T08:00:00.000Z' } as const;

function disbursementData(event: DisbursementEventType, eventId: string = randomUUID()): DisbursementEventData {
  // disbursement.reversed keeps the completed disbursement's status and transactionId (decision 0063).
  const completed = event !== 'disbursement.failed';
  return {
    eventId,
    partnerId: randomUUID(),
    event,
    referenceId: 'PKD-1714521600000-00112233445566778899AABB',
    externalId: 'payout-9',
    amount: 10.5,
    currency: 'USD',
    fee: 0.36,
    totalDebit: 10.86,
    status: completed ? 'completed' : 'failed',
    ...(completed ? { transactionId: 'TXN-ABC123' } : { failureCode: 'PKC_4002' }),
    timestamp: '2024-05-01T00:00:01.000Z',
    ...(event === 'disbursement.reversed' ? { reversal } : {}),
  };
}

function collectionEnvelope(data: CollectionEventData, overrides: { type?: string; version?: number } = {}) {
  return createEventEnvelope({ type: overrides.type ?? data.event, data, producer: 'collections', eventId: data.eventId, version: overrides.version ?? 1 });
}

function disbursementEnvelope(data: DisbursementEventData, overrides: { type?: string; version?: number } = {}) {
  return createEventEnvelope({ type: overrides.type ?? data.event, data, producer: 'disbursements', eventId: data.eventId, version: overrides.version ?? 1 });
}

/** The spec's webhook fields (transactionId only when completed), which every event must carry. */
const webhookFields = ['event', 'referenceId', 'externalId', 'amount', 'currency', 'fee', 'status', 'timestamp'] as const;

describe('collection events', () => {
  test.each(collectionEventTypes)('when a valid %s event arrives, then it is returned with typed data', (type) => {
    const data = collectionData(type);
    const event = parseCollectionEvent(collectionEnvelope(data));
    expect(event.type).toBe(type);
    expect(event.data).toEqual(data);
    expect(isCollectionEventType(type)).toBe(true);
  });

  test.each(webhookFields)('when the data lacks the webhook field %s, then it is a contract violation naming it', (field) => {
    const data: Record<string, unknown> = { ...collectionData('collection.declined') };
    delete data[field];
    expect(violationOf(() => parseCollectionEventData(data)).problems.join()).toContain(field);
  });

  test('when a completed collection carries no transactionId, then it is a contract violation', () => {
    const data: Record<string, unknown> = { ...collectionData('collection.completed') };
    delete data.transactionId;
    expect(violationOf(() => parseCollectionEventData(data)).problems.join()).toContain('transactionId');
  });

  test('when the status is not the one the event reports, then it is a contract violation', () => {
    const data = { ...collectionData('collection.expired'), status: 'completed' };
    expect(violationOf(() => parseCollectionEventData(data)).problems.join()).toContain('status');
  });

  test('when the envelope type and the data disagree, then it is a contract violation', () => {
    const data = collectionData('collection.declined');
    expect(violationOf(() => parseCollectionEvent(collectionEnvelope(data, { type: 'collection.expired' }))).problems.join()).toContain('event');
  });

  test('when the data carries another event id than its envelope, then it is a contract violation', () => {
    const data = collectionData('collection.declined');
    const envelope = { ...collectionEnvelope(data), eventId: randomUUID() };
    expect(violationOf(() => parseCollectionEvent(envelope)).problems.join()).toContain('eventId');
  });

  test('when the type is not a collection event or the version is unknown, then it is a contract violation', () => {
    const data = collectionData('collection.declined');
    expect(violationOf(() => parseCollectionEvent(collectionEnvelope(data, { type: 'partner.updated' }))).problems.join()).toContain('type');
    expect(violationOf(() => parseCollectionEvent(collectionEnvelope(data, { version: 2 }))).problems.join()).toContain('version');
  });
});

describe('disbursement events', () => {
  test.each(disbursementEventTypes)('when a valid %s event arrives, then it is returned with typed data', (type) => {
    const data = disbursementData(type);
    const event = parseDisbursementEvent(disbursementEnvelope(data));
    expect(event.type).toBe(type);
    expect(event.data).toEqual(data);
    expect(isDisbursementEventType(type)).toBe(true);
  });

  test.each(webhookFields)('when the data lacks the webhook field %s, then it is a contract violation naming it', (field) => {
    const data: Record<string, unknown> = { ...disbursementData('disbursement.completed') };
    delete data[field];
    expect(violationOf(() => parseDisbursementEventData(data)).problems.join()).toContain(field);
  });

  test.each([
    ['a completed transfer has no transactionId', { transactionId: undefined }, 'transactionId'],
    ['a completed transfer has a failure code', { failureCode: 'PKC_7004' }, 'failureCode'],
    ['the status contradicts the event', { status: 'failed' }, 'status'],
    ['the reference is not a disbursement reference', { referenceId: 'PKC-1714521600000-00112233445566778899AABB' }, 'referenceId'],
    ['the currency is unknown', { currency: 'EUR' }, 'currency'],
  ])('when %s, then it is a contract violation naming the field', (_case, override, field) => {
    const data = { ...disbursementData('disbursement.completed'), ...override };
    expect(violationOf(() => parseDisbursementEventData(data)).problems.join()).toContain(field);
  });

  test.each([
    ['a reversed disbursement has no reversal', 'disbursement.reversed', { reversal: undefined }, 'reversal'],
    ['a reversed disbursement is said to have failed', 'disbursement.reversed', { status: 'failed', transactionId: undefined, failureCode: 'PKC_4002' }, 'status'],
    ['a reversal gives back less than the amount', 'disbursement.reversed', { reversal: { ...reversal, amount: 10 } }, 'reversal'],
    ['a reversal is in another currency', 'disbursement.reversed', { reversal: { ...reversal, currency: 'LRD' } }, 'reversal'],
    ['a reversal has no transactionId', 'disbursement.reversed', { reversal: { ...reversal, transactionId: undefined } }, 'reversal.transactionId'],
    ['a completed disbursement carries a reversal', 'disbursement.completed', { reversal }, 'reversal'],
  ] as const)('when %s, then it is a contract violation naming the field', (_case, type, override, field) => {
    const data = { ...disbursementData(type), ...override };
    expect(violationOf(() => parseDisbursementEventData(data)).problems.join()).toContain(field);
  });

  test('when the type is not a disbursement event or the version is unknown, then it is a contract violation', () => {
    const data = disbursementData('disbursement.failed');
    expect(violationOf(() => parseDisbursementEvent(disbursementEnvelope(data, { type: 'collection.failed' }))).problems.join()).toContain('type');
    expect(violationOf(() => parseDisbursementEvent(disbursementEnvelope(data, { version: 2 }))).problems.join()).toContain('version');
  });
});

describe('failureReason on failed events (an optional field of version 1)', () => {
  const reason = { code: 'PKC_4002', message: 'Partner balance insufficient for amount plus fee' };

  /** An event as a producer wrote it before failureReason existed: through JSON, as the bus delivers it. */
  const asDelivered = <T>(envelope: T): T => JSON.parse(JSON.stringify(envelope)) as T;

  test('when an old disbursement.failed event without failureReason arrives, then it still parses, with failureCode alone', () => {
    const data = disbursementData('disbursement.failed');
    const event = parseDisbursementEvent(asDelivered(disbursementEnvelope(data)));
    expect(event.data).toEqual(data);
    expect(event.data.failureCode).toBe('PKC_4002');
    expect(event.data).not.toHaveProperty('failureReason');
  });

  test('when an old collection.failed event without failureReason arrives, then it still parses, with failureCode alone', () => {
    const data = collectionData('collection.failed');
    const event = parseCollectionEvent(asDelivered(collectionEnvelope(data)));
    expect(event.data).toEqual(data);
    expect(event.data).not.toHaveProperty('failureReason');
  });

  test('when a failed event carries failureReason, then it parses and keeps code and message', () => {
    const disbursement = { ...disbursementData('disbursement.failed'), failureReason: reason };
    expect(parseDisbursementEvent(asDelivered(disbursementEnvelope(disbursement))).data.failureReason).toEqual(reason);
    const collection = { ...collectionData('collection.failed'), failureCode: 'PKC_4002', failureReason: reason };
    expect(parseCollectionEvent(asDelivered(collectionEnvelope(collection))).data.failureReason).toEqual(reason);
  });

  test.each([
    ['it is on a completed disbursement', () => ({ ...disbursementData('disbursement.completed'), failureReason: reason })],
    ['its code differs from failureCode', () => ({ ...disbursementData('disbursement.failed'), failureReason: { ...reason, code: 'PKC_3002' } })],
    ['its code is not a PKC code', () => ({ ...disbursementData('disbursement.failed'), failureCode: 'oops', failureReason: { ...reason, code: 'oops' } })],
    ['its message is empty', () => ({ ...disbursementData('disbursement.failed'), failureReason: { ...reason, message: '' } })],
  ])('when a disbursement failureReason is wrong because %s, then it is a contract violation', (_case, data) => {
    expect(violationOf(() => parseDisbursementEventData(data())).problems.join()).toMatch(/failure(Reason|Code)/);
  });

  test.each([
    ['it is on a declined collection', () => ({ ...collectionData('collection.declined'), failureReason: reason })],
    ['its code differs from failureCode', () => ({ ...collectionData('collection.failed'), failureReason: reason })],
    ['its message is longer than 300 characters', () => ({ ...collectionData('collection.failed'), failureCode: 'PKC_4002', failureReason: { ...reason, message: 'm'.repeat(301) } })],
  ])('when a collection failureReason is wrong because %s, then it is a contract violation', (_case, data) => {
    expect(violationOf(() => parseCollectionEventData(data())).problems.join()).toContain('failureReason');
  });
});
