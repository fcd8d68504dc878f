import { isPartnerApiError, PartnerApiClient, PartnerApiError, type PartnerApiClientOptions } from '../../src';
import { FakeApi, fakeClock, ok, refusal } from './fake-api';

const quoteId = '6f1c2d3e-4a5b-4c6d-8e7f-901a2b3c4d5e';
const transferBody = { quoteId, externalId: 'payout-1' };
const transferred = { referenceId: 'PKD-1-AB', status: 'completed', transactionId: 'TXN-1', amount: 10, currency: 'USD', fee: 0.1, totalDebit: 10.1 };
const balance = { LRD: 0, USD: 100 };

function clientOf(api: FakeApi, clock = fakeClock(), options: Partial<PartnerApiClientOptions> = {}): PartnerApiClient {
  return new PartnerApiClient({ baseUrl: 'https://api.example.test/api/v1/', clientId: 'client', clientSecret: 'secret', fetch: api.fetch, clock, ...options });
}

async function refusalOf(pending: Promise<unknown>): Promise<PartnerApiError> {
  const error = await pending.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isPartnerApiError(error)) throw new Error(`expected a PartnerApiError, got ${String(error)}`);
  return error;
}

describe('the client and its token', () => {
  test('when several calls start together, then they share one token request and send the token as a bearer', async () => {
    const api = new FakeApi().script('/partner/v1/balance', ok(balance));
    const client = clientOf(api);

    await Promise.all([client.getBalance(), client.getBalance(), client.getBalance()]);

    expect(api.sentTo('/partner/auth/token')).toHaveLength(1);
    expect(api.sentTo('/partner/auth/token')[0]?.body).toEqual({ client_id: 'client', client_secret: 'secret' });
    expect(api.sentTo('/partner/v1/balance').map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-1']);
  });

  test('when the token is within the margin of its expiry, then the next call gets a new one first', async () => {
    const api = new FakeApi().script('/partner/v1/balance', ok(balance));
    const clock = fakeClock();
    const client = clientOf(api, clock, { tokenRefreshMarginSeconds: 60 });

    await client.getBalance();
    clock.advance(3_539_000);
    await client.getBalance();
    clock.advance(2_000);
    await client.getBalance();

    expect(api.sentTo('/partner/v1/balance').map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
  });

  test('when a short-lived token is issued, then the margin is at most a quarter of its lifetime and the token is reused', async () => {
    const api = new FakeApi().script('/partner/v1/balance', ok(balance));
    api.tokenLifetimeSeconds = 8;
    const clock = fakeClock();
    const client = clientOf(api, clock);

    await client.getBalance();
    clock.advance(5_900);
    await client.getBalance();
    clock.advance(200);
    await client.getBalance();

    expect(api.sentTo('/partner/v1/balance').map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-1', 'Bearer token-2']);
  });

  test('when the API answers 401 PKC_1003, then the client gets a new token and sends the call once more', async () => {
    const api = new FakeApi().script('/partner/v1/balance', refusal(401, 'PKC_1003'), ok(balance));
    const client = clientOf(api);

    await expect(client.getBalance()).resolves.toEqual(balance);

    expect(api.sentTo('/partner/auth/token')).toHaveLength(2);
    expect(api.sentTo('/partner/v1/balance').map((request) => request.headers.authorization)).toEqual(['Bearer token-1', 'Bearer token-2']);
  });

  test('when the new token is refused with PKC_1003 too, then the call fails with it after one renewal', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', refusal(401, 'PKC_1003'));
    const client = clientOf(api);

    const error = await refusalOf(client.transferDisbursement(transferBody));

    expect({ code: error.code, status: error.status }).toEqual({ code: 'PKC_1003', status: 401 });
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(2);
    expect(api.sentTo('/partner/auth/token')).toHaveLength(2);
  });

  test('when the token endpoint refuses the credentials, then every call fails with its code and the OAuth error field', async () => {
    const api = new FakeApi().script('/partner/auth/token', refusal(401, 'PKC_1002', { error: 'invalid_client' }));
    const client = clientOf(api);

    const error = await refusalOf(client.getBalance());

    expect({ code: error.code, status: error.status, operationId: error.operationId, fields: error.fields }).toEqual({ code: 'PKC_1002', status: 401, operationId: 'getAccessToken', fields: { error: 'invalid_client' } });
    expect(api.sentTo('/partner/v1/balance')).toHaveLength(0);
  });
});

describe('refusals', () => {
  test('when a transfer is refused with 409 PKC_6001, then PartnerApiError carries code, status, message, referenceId, status field and request id, and it is not retried', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', refusal(409, 'PKC_6001', { referenceId: 'PKD-1-AB', status: 'completed' }, { 'x-request-id': 'req-409' }));
    const client = clientOf(api);

    const error = await refusalOf(client.transferDisbursement(transferBody));

    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({
      name: 'PartnerApiError',
      code: 'PKC_6001',
      status: 409,
      message: 'refused with PKC_6001',
      referenceId: 'PKD-1-AB',
      fields: { referenceId: 'PKD-1-AB', status: 'completed' },
      requestId: 'req-409',
      attempts: 1,
      outcomeUnknown: false,
    });
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
  });

  test('when a proxy answers HTML, then the error is SDK_UNEXPECTED_ANSWER with the status', async () => {
    const api = new FakeApi().script('/partner/v1/balance', { status: 502, text: '<html>bad gateway</html>' });
    const client = clientOf(api, fakeClock(), { retry: { attemptsMax: 1 } });

    const error = await refusalOf(client.getBalance());

    expect({ code: error.code, status: error.status }).toEqual({ code: 'SDK_UNEXPECTED_ANSWER', status: 502 });
  });

  test('when a path parameter is given, then it is encoded into the path and the query leaves out undefined values', async () => {
    const api = new FakeApi().script('/partner/v1/account/%2B231770000001', ok({ phone: '+231770000001' })).script('/partner/v1/collections?status=completed&limit=5', ok({ items: [], nextCursor: null, hasMore: false }));
    const client = clientOf(api);

    await client.lookUpAccount('+231770000001');
    await client.listCollections({ status: 'completed', limit: 5, cursor: undefined });

    expect(api.sent.map((request) => request.path)).toEqual(['/partner/auth/token', '/partner/v1/account/%2B231770000001', '/partner/v1/collections?status=completed&limit=5']);
  });
});

describe('retries', () => {
  test('when a read is answered 429 PKC_7001 with Retry-After, then the client waits at least that long and succeeds', async () => {
    const api = new FakeApi().script('/partner/v1/balance', refusal(429, 'PKC_7001', {}, { 'retry-after': '7' }), ok(balance));
    const clock = fakeClock();
    const client = clientOf(api, clock);

    await expect(client.getBalance()).resolves.toEqual(balance);

    expect(clock.sleeps).toHaveLength(1);
    expect(clock.sleeps[0]).toBeGreaterThanOrEqual(7_000);
    expect(clock.sleeps[0]).toBeLessThanOrEqual(8_000);
  });

  test('when a transfer is answered 429 PKC_7001, then it is sent again (the gateway refused it before any service saw it)', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', refusal(429, 'PKC_7001', {}, { 'retry-after': '1' }), ok(transferred));
    const client = clientOf(api);

    await expect(client.transferDisbursement(transferBody)).resolves.toEqual(transferred);
    expect(api.sentTo('/partner/v1/disbursement/transfer').map((request) => request.body)).toEqual([transferBody, transferBody]);
  });

  test('when a transfer is answered 429 PKC_4010 (the user’s hourly count), then it is not retried', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', refusal(429, 'PKC_4010'));
    const client = clientOf(api);

    const error = await refusalOf(client.transferDisbursement(transferBody));

    expect(error.code).toBe('PKC_4010');
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
  });

  test('when Retry-After is longer than retryAfterMaxMs, then the call fails at once with retryAfter', async () => {
    const api = new FakeApi().script('/partner/v1/balance', refusal(429, 'PKC_7001', {}, { 'retry-after': '900' }));
    const clock = fakeClock();
    const client = clientOf(api, clock);

    const error = await refusalOf(client.getBalance());

    expect({ code: error.code, retryAfter: error.retryAfter, attempts: error.attempts }).toEqual({ code: 'PKC_7001', retryAfter: 900, attempts: 1 });
    expect(clock.sleeps).toEqual([]);
  });

  test('when a read keeps answering 503, then it is tried attemptsMax times with growing, jittered waits and fails with the last answer', async () => {
    const api = new FakeApi().script('/partner/v1/balance', refusal(503, 'PKC_7003'));
    const clock = fakeClock();
    const client = clientOf(api, clock, { retry: { attemptsMax: 4, baseDelayMs: 100, maxDelayMs: 10_000 } });

    const error = await refusalOf(client.getBalance());

    expect({ code: error.code, attempts: error.attempts, outcomeUnknown: error.outcomeUnknown }).toEqual({ code: 'PKC_7003', attempts: 4, outcomeUnknown: false });
    expect(api.sentTo('/partner/v1/balance')).toHaveLength(4);
    // Equal jitter with random() = 0.5: three quarters of each step (100, 200, 400 ms).
    expect(clock.sleeps).toEqual([75, 150, 300]);
  });

  test('when a quote meets a connection reset, then it is sent again (a quote moves no money)', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/quote', { networkError: 'ECONNRESET' }, ok({ quoteId }));
    const client = clientOf(api);

    await expect(client.quoteDisbursement({ phone: '0770000001', amount: 10, currency: 'USD' })).resolves.toEqual({ quoteId });
    expect(api.sentTo('/partner/v1/disbursement/quote')).toHaveLength(2);
  });

  test.each([
    ['500 PKC_7002', refusal(500, 'PKC_7002'), 'PKC_7002'],
    ['503 PKC_7003', refusal(503, 'PKC_7003'), 'PKC_7003'],
    ['a connection reset', { networkError: 'ECONNRESET' }, 'SDK_NETWORK'],
  ] as const)('when a transfer meets %s, then it is not sent again and the error says the outcome is unknown', async (_name, scripted, code) => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', scripted, ok(transferred));
    const client = clientOf(api);

    const error = await refusalOf(client.transferDisbursement(transferBody));

    expect({ code: error.code, outcomeUnknown: error.outcomeUnknown, attempts: error.attempts }).toEqual({ code, outcomeUnknown: true, attempts: 1 });
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
  });

  test('when a transfer cannot connect at all (ECONNREFUSED), then it is sent again: nothing reached the server', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', { networkError: 'ECONNREFUSED' }, ok(transferred));
    const client = clientOf(api);

    await expect(client.transferDisbursement(transferBody)).resolves.toEqual(transferred);
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(2);
  });

  test.each(['DEPTH_ZERO_SELF_SIGNED_CERT', 'CERT_HAS_EXPIRED', 'ERR_TLS_CERT_ALTNAME_INVALID'])(
    'when a transfer’s TLS handshake refuses the certificate (%s), then it is not sent again, its outcome is known (nothing was sent) and the message says what to do',
    async (code) => {
      const api = new FakeApi().script('/partner/v1/disbursement/transfer', { networkError: code }, ok(transferred));
      const client = clientOf(api);

      const error = await refusalOf(client.transferDisbursement(transferBody));

      expect({ code: error.code, outcomeUnknown: error.outcomeUnknown, attempts: error.attempts }).toEqual({ code: 'SDK_NETWORK', outcomeUnknown: false, attempts: 1 });
      expect(error.message).toContain(code);
      expect(error.message).toContain('NODE_EXTRA_CA_CERTS=.local/tls/cert.pem');
      expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
    },
  );

  test('when a read’s TLS handshake refuses the certificate, then it is not retried either: a repeat meets the same certificate', async () => {
    const api = new FakeApi().script('/partner/v1/balance', { networkError: 'SELF_SIGNED_CERT_IN_CHAIN' }, ok(balance));
    const client = clientOf(api);

    const error = await refusalOf(client.getBalance());

    expect({ code: error.code, attempts: error.attempts }).toEqual({ code: 'SDK_NETWORK', attempts: 1 });
    expect(error.message).toContain("ca: readFileSync('.local/tls/cert.pem')");
    expect(api.sentTo('/partner/v1/balance')).toHaveLength(1);
  });

  test('when a transfer is answered 504 PKC_7004, then transferDisbursement does not send the spent quote again and says nothing was posted', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', refusal(504, 'PKC_7004'), ok(transferred));
    const client = clientOf(api);

    const error = await refusalOf(client.transferDisbursement(transferBody));

    expect({ code: error.code, status: error.status, outcomeUnknown: error.outcomeUnknown }).toEqual({ code: 'PKC_7004', status: 504, outcomeUnknown: false });
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
  });

  test('when disburse meets 504 PKC_7004, then it gets a new quote and sends the same externalId with it', async () => {
    const secondQuoteId = '7a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d';
    const api = new FakeApi()
      .script('/partner/v1/disbursement/quote', ok({ quoteId }), ok({ quoteId: secondQuoteId }))
      .script('/partner/v1/disbursement/transfer', refusal(504, 'PKC_7004'), ok(transferred));
    const client = clientOf(api);

    await expect(client.disburse({ phone: '0770000001', amount: 10, currency: 'USD', externalId: 'payout-1', note: 'n' })).resolves.toEqual(transferred);
    expect(api.sentTo('/partner/v1/disbursement/transfer').map((request) => request.body)).toEqual([
      { quoteId, externalId: 'payout-1', note: 'n' },
      { quoteId: secondQuoteId, externalId: 'payout-1', note: 'n' },
    ]);
  });

  test('when every transfer of disburse runs out of budget, then it stops after budgetAttemptsMax with PKC_7004; other refusals stop it at once', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/quote', ok({ quoteId })).script('/partner/v1/disbursement/transfer', refusal(504, 'PKC_7004'));
    const client = clientOf(api);
    const refusedApi = new FakeApi().script('/partner/v1/disbursement/quote', ok({ quoteId })).script('/partner/v1/disbursement/transfer', refusal(400, 'PKC_4002'));

    const error = await refusalOf(client.disburse({ phone: '0770000001', amount: 10, currency: 'USD', externalId: 'payout-1' }, { budgetAttemptsMax: 2 }));
    const refused = await refusalOf(clientOf(refusedApi).disburse({ phone: '0770000001', amount: 10, currency: 'USD', externalId: 'payout-2' }));

    expect(error.code).toBe('PKC_7004');
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(2);
    expect(refused.code).toBe('PKC_4002');
    expect(refusedApi.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
  });

  test('when a collection request is answered 504 PKC_7004, then it is not retried (only transfers are)', async () => {
    const api = new FakeApi().script('/partner/v1/collection/request', refusal(504, 'PKC_7004'));
    const client = clientOf(api);

    const error = await refusalOf(client.requestCollection({ quoteId, externalId: 'order-1' }));

    expect(error.code).toBe('PKC_7004');
    expect(api.sentTo('/partner/v1/collection/request')).toHaveLength(1);
  });

  test('when a transfer gets no answer within its timeout, then it fails with SDK_TIMEOUT, outcome unknown, and is not sent again', async () => {
    const api = new FakeApi().script('/partner/v1/disbursement/transfer', { hang: true }, ok(transferred));
    const client = clientOf(api, fakeClock(), { transferTimeoutMs: 50 });

    const error = await refusalOf(client.transferDisbursement(transferBody));

    expect({ code: error.code, status: error.status, outcomeUnknown: error.outcomeUnknown }).toEqual({ code: 'SDK_TIMEOUT', status: 0, outcomeUnknown: true });
    expect(api.sentTo('/partner/v1/disbursement/transfer')).toHaveLength(1);
  });

  test('when a read gets no answer within its timeout, then it is tried again and succeeds', async () => {
    const api = new FakeApi().script('/partner/v1/balance', { hang: true }, ok(balance));
    const client = clientOf(api, fakeClock(), { timeoutMs: 50 });

    await expect(client.getBalance()).resolves.toEqual(balance);
    expect(api.sentTo('/partner/v1/balance')).toHaveLength(2);
  });

  test('when no transfer timeout is given, then a transfer waits 30 s and other calls 15 s before giving up', async () => {
    const timeouts: number[] = [];
    const realSetTimeout = global.setTimeout;
    const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      timeouts.push(ms ?? 0);
      return realSetTimeout(callback, 0x7fffffff);
    }));
    try {
      const api = new FakeApi().script('/partner/v1/disbursement/transfer', ok(transferred)).script('/partner/v1/balance', ok(balance));
      const client = clientOf(api);
      await client.transferDisbursement(transferBody);
      await client.getBalance();
    } finally {
      spy.mockRestore();
    }
    expect(timeouts).toEqual([15_000, 30_000, 15_000]);
  });
});

describe('cancel and refunds', () => {
  const referenceId = 'PKC-1718000000000-9F3A6C1E84B25D07A1C3E5F7092B4D6E';
  const refundPath = `/partner/v1/collection/${referenceId}/refund`;
  const refundBody = { externalId: 'refund-1', amount: 10 };
  const refund = { referenceId: 'PKR-1718003600000-7C2E91A04B3D58F6A1E2D3C4', collectionReferenceId: referenceId, externalId: 'refund-1', status: 'processing', amount: 10, currency: 'USD', fee: 0, reason: null, createdAt: '2024-06-10T07:15:00.000Z', collectionRefundedAmount: 10 };

  test('when a refund is answered 202 processing, then it resolves with the refund, sent once with its body to the collection’s refund path', async () => {
    const api = new FakeApi().script(refundPath, ok(refund, 202));
    const client = clientOf(api);

    await expect(client.refundCollection(referenceId, refundBody)).resolves.toEqual(refund);
    expect(api.sentTo(refundPath).map((request) => request.body)).toEqual([refundBody]);
  });

  test('when a refund is answered 429 PKC_7001, then it is sent again; on 503 PKC_7003 or a lost connection it is not, and the outcome is unknown', async () => {
    const limited = new FakeApi().script(refundPath, refusal(429, 'PKC_7001', {}, { 'retry-after': '1' }), ok(refund));
    await expect(clientOf(limited).refundCollection(referenceId, refundBody)).resolves.toEqual(refund);
    expect(limited.sentTo(refundPath)).toHaveLength(2);

    for (const scripted of [refusal(503, 'PKC_7003'), { networkError: 'ECONNRESET' }] as const) {
      const api = new FakeApi().script(refundPath, scripted, ok(refund));
      const error = await refusalOf(clientOf(api).refundCollection(referenceId, refundBody));
      expect({ outcomeUnknown: error.outcomeUnknown, attempts: error.attempts }).toEqual({ outcomeUnknown: true, attempts: 1 });
      expect(api.sentTo(refundPath)).toHaveLength(1);
    }
  });

  test('when a cancel is answered 500 PKC_7002, then it is not sent again; 409 PKC_6004 is thrown as is', async () => {
    const cancelPath = `/partner/v1/collection/${referenceId}/cancel`;
    const failing = new FakeApi().script(cancelPath, refusal(500, 'PKC_7002'), ok({ referenceId, status: 'cancelled' }));
    const error = await refusalOf(clientOf(failing).cancelCollection(referenceId));
    expect({ code: error.code, outcomeUnknown: error.outcomeUnknown }).toEqual({ code: 'PKC_7002', outcomeUnknown: true });
    expect(failing.sentTo(cancelPath)).toHaveLength(1);

    const refused = new FakeApi().script(cancelPath, refusal(409, 'PKC_6004'));
    expect((await refusalOf(clientOf(refused).cancelCollection(referenceId))).code).toBe('PKC_6004');
  });

  test('when refunds are iterated, then the pages are followed with the same filters until the last', async () => {
    const second = { ...refund, referenceId: 'PKR-1718003500000-0F1E2D3C4B5A69788796A5B4' };
    const api = new FakeApi().script('/partner/v1/refunds', ok({ items: [refund], nextCursor: 'c1', hasMore: true }), ok({ items: [second], nextCursor: null, hasMore: false }));
    const seen: string[] = [];

    for await (const item of clientOf(api).iterateRefunds({ collectionReferenceId: referenceId, limit: 1 })) seen.push(item.referenceId);

    expect(seen).toEqual([refund.referenceId, second.referenceId]);
    expect(api.sent.filter((request) => request.path.startsWith('/partner/v1/refunds')).map((request) => request.path)).toEqual([
      `/partner/v1/refunds?collectionReferenceId=${referenceId}&limit=1`,
      `/partner/v1/refunds?collectionReferenceId=${referenceId}&limit=1&cursor=c1`,
    ]);
  });
});

describe('bulk payouts', () => {
  const bulkId = 'PKB-1718000000000-2A9C4E6F8B1D3F5A7C9E0B2D';
  const bulkPath = `/partner/v1/disbursement/bulk/${bulkId}`;
  const transferPath = '/partner/v1/disbursement/bulk/transfer';
  const transferBody = { bulkQuoteId: '2f7d1c4e-5a6b-4c8d-9e0f-1a2b3c4d5e6f', externalId: 'payroll-2026-11' };
  const summary = {
    bulkId,
    externalId: 'payroll-2026-11',
    status: 'processing',
    currency: 'USD',
    counts: { total: 2, pending: 2, completed: 0, failed: 0 },
    totalAmount: 65.5,
    totalFee: 0.7,
    totalDebit: 66.2,
    completedAmount: 0,
    completedFee: 0,
    createdAt: '2024-06-10T06:14:02.000Z',
    completedAt: null as string | null,
  };
  const item = (index: number, status: 'pending' | 'completed' | 'failed') => ({ referenceId: `PKD-1718000042000-${String(index).padStart(24, '0')}`, externalId: `payroll-${index}`, status, index, bulkId });
  const bulkWith = (progress: Partial<typeof summary>, items: unknown[], nextCursor: string | null = null) => ({ ...summary, ...progress, items: { items, nextCursor, hasMore: nextCursor !== null } });

  test('when a bulk is quoted, then the body goes to the bulk quote path and a quote refusal with no valid item carries every item’s result', async () => {
    const quotePath = '/partner/v1/disbursement/bulk/quote';
    const body = { currency: 'USD' as const, items: [{ phone: '0770000001', amount: 25.5, externalId: 'payroll-1' }] };
    const quote = { bulkQuoteId: transferBody.bulkQuoteId, validCount: 1 };
    const api = new FakeApi().script(quotePath, ok(quote));
    await expect(clientOf(api).quoteBulkDisbursement(body)).resolves.toEqual(quote);
    expect(api.sentTo(quotePath).map((request) => request.body)).toEqual([body]);

    const items = [{ index: 0, externalId: 'payroll-1', status: 'invalid', failureReason: { code: 'PKC_3001', message: 'No account for this phone number' } }];
    const refused = new FakeApi().script(quotePath, refusal(400, 'PKC_5005', { items }));
    const error = await refusalOf(clientOf(refused).quoteBulkDisbursement(body));
    expect({ code: error.code, items: error.fields.items }).toEqual({ code: 'PKC_5005', items });
  });

  test('when a bulk transfer is answered 202, then it resolves with the summary; on 503 or a lost connection it is not sent again and the outcome is unknown', async () => {
    const api = new FakeApi().script(transferPath, ok(summary, 202));
    await expect(clientOf(api).transferBulkDisbursement(transferBody)).resolves.toEqual(summary);
    expect(api.sentTo(transferPath).map((request) => request.body)).toEqual([transferBody]);

    for (const scripted of [refusal(503, 'PKC_7003'), { networkError: 'ECONNRESET' }] as const) {
      const failing = new FakeApi().script(transferPath, scripted, ok(summary));
      const error = await refusalOf(clientOf(failing).transferBulkDisbursement(transferBody));
      expect({ outcomeUnknown: error.outcomeUnknown, attempts: error.attempts }).toEqual({ outcomeUnknown: true, attempts: 1 });
      expect(failing.sentTo(transferPath)).toHaveLength(1);
    }
  });

  test('when a bulk is read with limit and cursor, then they are its query', async () => {
    const api = new FakeApi().script(bulkPath, ok(bulkWith({}, [item(0, 'pending')])));

    await clientOf(api).getBulkDisbursement(bulkId, { limit: 5, cursor: 'c1' });

    expect(api.sent.filter((request) => request.path.startsWith(bulkPath)).map((request) => request.path)).toEqual([`${bulkPath}?limit=5&cursor=c1`]);
  });

  test('when a bulk’s items are iterated, then the bulk’s items list is followed page after page until the last', async () => {
    const itemsPath = `${bulkPath}/items`;
    const page = (items: unknown[], nextCursor: string | null = null) => ({ items, nextCursor, hasMore: nextCursor !== null });
    const api = new FakeApi().script(itemsPath, ok(page([item(0, 'completed'), item(1, 'pending')], 'c1')), ok(page([item(2, 'failed')])));
    const seen: number[] = [];

    for await (const bulkItem of clientOf(api).iterateBulkItems(bulkId, { limit: 2 })) seen.push(bulkItem.index);

    expect(seen).toEqual([0, 1, 2]);
    expect(api.sent.filter((request) => request.path.startsWith(bulkPath)).map((request) => request.path)).toEqual([`${itemsPath}?limit=2`, `${itemsPath}?limit=2&cursor=c1`]);
  });

  test('when a bulk is watched, then each read’s summary (without items) is yielded, reads are intervalMs apart, and it returns after the final status', async () => {
    const clock = fakeClock();
    const api = new FakeApi().script(
      bulkPath,
      ok(bulkWith({}, [item(0, 'pending')])),
      ok(bulkWith({ counts: { total: 2, pending: 1, completed: 1, failed: 0 } }, [item(0, 'completed')])),
      ok(bulkWith({ status: 'completed_with_failures', counts: { total: 2, pending: 0, completed: 1, failed: 1 }, completedAt: '2024-06-10T06:14:04.518Z' }, [item(0, 'completed')])),
      ok(bulkWith({ status: 'completed' }, [])),
    );
    const seen: unknown[] = [];

    for await (const progress of clientOf(api, clock).watchBulkDisbursement(bulkId, { intervalMs: 500 })) seen.push(progress);

    expect(seen.map((progress) => (progress as { status: string; counts: { pending: number } }).status)).toEqual(['processing', 'processing', 'completed_with_failures']);
    expect(seen.every((progress) => !Object.prototype.hasOwnProperty.call(progress, 'items'))).toBe(true);
    expect(seen[2]).toEqual({ ...summary, status: 'completed_with_failures', counts: { total: 2, pending: 0, completed: 1, failed: 1 }, completedAt: '2024-06-10T06:14:04.518Z' });
    expect(api.sent.filter((request) => request.path.startsWith(bulkPath)).map((request) => request.path)).toEqual(Array(3).fill(`${bulkPath}?limit=1`));
    expect(clock.sleeps).toEqual([500, 500]);
  });

  test('when a watch is stopped early, then no further read is made', async () => {
    const api = new FakeApi().script(bulkPath, ok(bulkWith({}, [])));

    for await (const progress of clientOf(api).watchBulkDisbursement(bulkId, { intervalMs: 10 })) {
      expect(progress.status).toBe('processing');
      break;
    }

    expect(api.sent.filter((request) => request.path.startsWith(bulkPath))).toHaveLength(1);
  });
});
