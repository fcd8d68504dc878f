import { randomUUID } from 'node:crypto';
import {
  createEventEnvelope,
  isContractViolation,
  isWalletEventType,
  parseWalletDisbursementReversedEvent,
  walletEventTypes,
  type WalletDisbursementReversedData,
} from '@pwa/contracts';

function reversedData(eventId: string = randomUUID()): WalletDisbursementReversedData {
  return {
    eventId,
    event: 'wallet.disbursement_reversed',
    partnerId: randomUUID(),
    referenceId: 'PKD-1714521600000-00112233445566778899AABB',
    disbursementTransactionId: 'TXN-ABC123',
    reversalTransactionId: 'TXN-DEF456',
    amount: 12.5,
    currency: 'USD',
    reversedAt: '2024-05-02T08:00:00.000Z',
  };
}

function envelopeOf(data: unknown, overrides: { type?: string; version?: number; eventId?: string } = {}) {
  const eventId = overrides.eventId ?? (data as { eventId: string }).eventId;
  return createEventEnvelope({ type: overrides.type ?? 'wallet.disbursement_reversed', data, producer: 'wallet', eventId, version: overrides.version ?? 1 });
}

function problemsOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (isContractViolation(error)) return (error as { problems: string[] }).problems.join('; ');
    throw error;
  }
  throw new Error('expected a contract violation');
}

describe('wallet.disbursement_reversed (version 1)', () => {
  test('when a valid event arrives, then it is returned with its typed data, through JSON as the bus delivers it', () => {
    const data = reversedData();
    const delivered = JSON.parse(JSON.stringify(envelopeOf(data))) as ReturnType<typeof envelopeOf>;
    const event = parseWalletDisbursementReversedEvent(delivered);
    expect(event.type).toBe('wallet.disbursement_reversed');
    expect(event.data).toEqual(data);
    expect(walletEventTypes).toEqual(['wallet.disbursement_reversed']);
    expect(isWalletEventType('wallet.disbursement_reversed')).toBe(true);
    expect(isWalletEventType('disbursement.reversed')).toBe(false);
  });

  test.each([
    ['the reference is not a disbursement’s', { referenceId: 'PKC-1714521600000-00112233445566778899AABBCCDDEEFF' }, 'referenceId'],
    ['the reversal has no transaction', { reversalTransactionId: undefined }, 'reversalTransactionId'],
    ['the disbursement’s transaction is malformed', { disbursementTransactionId: 'txn-1' }, 'disbursementTransactionId'],
    ['the amount is zero', { amount: 0 }, 'amount'],
    ['the currency is unknown', { currency: 'EUR' }, 'currency'],
    ['the time is not UTC ISO 8601', { reversedAt: 'yesterday' }, 'reversedAt'],
    ['the partner is not a UUID', { partnerId: 'partner-1' }, 'partnerId'],
  ])('when %s, then it is a contract violation naming the field', (_case, override, field) => {
    const data = { ...reversedData(), ...override };
    expect(problemsOf(() => parseWalletDisbursementReversedEvent(envelopeOf(data)))).toContain(field);
  });

  test('when the envelope’s type, version or eventId disagrees, then it is a contract violation', () => {
    const data = reversedData();
    expect(problemsOf(() => parseWalletDisbursementReversedEvent(envelopeOf(data, { type: 'disbursement.reversed' })))).toContain('type');
    expect(problemsOf(() => parseWalletDisbursementReversedEvent(envelopeOf(data, { version: 2 })))).toContain('version');
    expect(problemsOf(() => parseWalletDisbursementReversedEvent(envelopeOf(data, { eventId: randomUUID() })))).toContain('eventId');
  });
});
