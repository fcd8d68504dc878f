import { randomUUID } from 'node:crypto';
import {
  refusalSchema,
  walletCancellationAnswerSchema,
  walletCancelledTransferCode,
  walletCheckAnswerSchema,
  walletCheckBody,
  walletCheckRequestSchema,
  walletContractExamples,
  walletPaths,
  walletTransferAnswerSchema,
  walletTransferBatchAnswerSchema,
  walletTransferBatchRequestSchema,
  walletTransferBody,
} from '@pwa/contracts';
import { changeUser } from '../../src/use-cases/manage-users';
import { createTestPartner, createTestUser, postJson, startWalletHarness, type WalletHarness } from './wallet-harness';

/**
 * The wallet's internal contract (libs/contracts internal/wallet) through its real routes: the
 * documented examples, with this test's own user and partner put in, are accepted, and every
 * answer the routes give parses with the schemas the callers read them with.
 */
describe('wallet internal contract', () => {
  let harness: WalletHarness;

  beforeAll(async () => {
    harness = await startWalletHarness();
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const post = (path: string, body: unknown) => postJson(`${harness.baseUrl}${path}`, body);

  test('when the documented check example is posted for a real user and partner, then the answer parses as the contract says', async () => {
    const user = await createTestUser(harness, { balances: { USD: 50_000n } });
    const partnerId = await createTestPartner(harness, { USD: 1_000_000n });
    const example = { ...walletContractExamples.checkRequest, phone: user.phone, partnerId };
    expect(walletCheckRequestSchema.safeParse(example).success).toBe(true);
    const answer = await post(walletPaths.checks, example);
    expect(answer.status).toBe(200);
    const parsed = walletCheckAnswerSchema.parse(answer.body);
    expect(parsed).toMatchObject({ userBalanceMinor: 50_000n, partnerBalanceMinor: 1_000_000n, recipient: { phone: user.phone, hasWallet: true } });
    expect(Object.keys(answer.body as object).sort()).toEqual(Object.keys(walletContractExamples.checkAnswer).sort());
  });

  test('when a transfer is posted, cancelled, and a cancelled id is posted, then each answer parses with its schema', async () => {
    const user = await createTestUser(harness);
    const partnerId = await createTestPartner(harness, { USD: 100_000n });
    const movement = { type: 'disbursement' as const, partnerId, phone: user.phone, currency: 'USD' as const, amountMinor: 1_050n, feeMinor: 35n };
    const transferId = randomUUID();
    const posted = await post(walletPaths.transfers, walletTransferBody({ ...movement, transferId, reference: 'contract test' }));
    expect(posted.status).toBe(200);
    expect(walletTransferAnswerSchema.parse(posted.body)).toMatchObject({ transferId, status: 'posted' });
    expect(Object.keys(posted.body as object).sort()).toEqual(Object.keys(walletContractExamples.transferAnswer).sort());

    const cancelledLate = await post(walletPaths.cancellation(transferId), {});
    expect(walletCancellationAnswerSchema.parse(cancelledLate.body)).toMatchObject({ state: 'posted', transferId });

    const unposted = randomUUID();
    const cancelled = await post(walletPaths.cancellation(unposted), {});
    expect(walletCancellationAnswerSchema.parse(cancelled.body)).toEqual({ transferId: unposted, state: 'cancelled' });
    const refused = await post(walletPaths.transfers, walletTransferBody({ ...movement, transferId: unposted, reference: null }));
    expect(refused.status).toBe(409);
    expect(refusalSchema.parse(refused.body).code).toBe(walletCancelledTransferCode);
  });

  test('when the documented batch example is posted for real users and a partner, then the answer is the documented one in shape and outcomes', async () => {
    const [paid, frozen] = await Promise.all([createTestUser(harness), createTestUser(harness)]);
    await changeUser(harness.pool, frozen.phone, { freeze: ['USD'] });
    const partnerId = await createTestPartner(harness, { USD: 100_000n });
    const [first, second] = walletContractExamples.transferBatchRequest.items;
    const example = {
      ...walletContractExamples.transferBatchRequest,
      partnerId,
      items: [
        { ...first, transferId: randomUUID(), phone: paid.phone },
        { ...second, transferId: randomUUID(), phone: frozen.phone },
      ],
    };
    expect(walletTransferBatchRequestSchema.safeParse(example).success).toBe(true);
    const answer = await post(walletPaths.transferBatches, example);
    expect(answer.status).toBe(200);
    const parsed = walletTransferBatchAnswerSchema.parse(answer.body);
    expect(parsed.results.map((result) => [result.transferId, result.outcome])).toEqual(example.items.map((item, index) => [item.transferId, walletContractExamples.transferBatchAnswer.results[index]?.outcome]));
    expect(parsed.results[1]).toEqual({ ...walletContractExamples.transferBatchAnswer.results[1], transferId: example.items[1]?.transferId });
    for (const [index, result] of (answer.body as { results: object[] }).results.entries()) {
      expect(Object.keys(result).sort()).toEqual(Object.keys(walletContractExamples.transferBatchAnswer.results[index] ?? {}).sort());
    }
  });

  test('when a rule refuses a check, or the body breaks the contract, then the refusal parses as the envelope callers read', async () => {
    const partnerId = await createTestPartner(harness);
    const unknown = await post(walletPaths.checks, walletCheckBody({ type: 'collection', partnerId, phone: '+231770999999', currency: 'USD', amountMinor: 100n, feeMinor: 0n }));
    expect([unknown.status, refusalSchema.parse(unknown.body).code]).toEqual([404, 'PKC_3001']);
    const malformed = await post(walletPaths.checks, { ...walletContractExamples.checkRequest, amountMinor: 10.5 });
    expect([malformed.status, refusalSchema.parse(malformed.body).code]).toEqual([400, 'PKC_2008']);
  });
});
