import type { z } from '@pwa/config';
import type { walletCheckRequestSchema, walletTransferBatchCheckAnswerSchema, walletTransferBatchCheckRequestSchema } from '@pwa/contracts';
import { startJsonStandIn } from '../../../../test/support/json-stand-in';

/**
 * A stand-in for the wallet's internal check API (POST /internal/checks), for quotes' own
 * integration tests: the wallet is our own service, not a database or broker, so its contract
 * (libs/contracts internal/wallet; internal-contract.test.ts holds this stand-in to it) is played here and the real wallet is driven in the e2e suite.
 * Every other path answers 404, so a call quotes must never make would show up as a failure.
 */
/** The body quotes sends: the wallet's own contract (libs/contracts internal/wallet). */
export type CheckRequestBody = z.input<typeof walletCheckRequestSchema>;

export type CheckAnswer =
  | { kind: 'pass'; name?: string; partnerBalanceMinor?: string; userBalanceMinor?: string }
  | { kind: 'refuse'; status: number; code: string }
  | { kind: 'fail'; status: number }
  | { kind: 'hang'; delayMs: number };

/** The body of a batch check (POST /internal/transfer-batches/checks) and the stand-in's answer to it. */
export type BatchCheckRequestBody = z.input<typeof walletTransferBatchCheckRequestSchema>;
export type BatchCheckAnswer = { kind: 'answer'; body: z.input<typeof walletTransferBatchCheckAnswerSchema> } | { kind: 'fail'; status: number };

export interface WalletStandIn {
  url: string;
  /** Requests received, newest last, with their path. */
  received: { path: string; body: CheckRequestBody }[];
  /** Decides the answer to each check; the default passes every check. */
  answer: (body: CheckRequestBody) => CheckAnswer;
  /** Batch checks received, newest last. */
  batchReceived: BatchCheckRequestBody[];
  /** Decides the answer to each batch check; the default passes every item with a balance of 5,000,000.00. */
  batchAnswer: (body: BatchCheckRequestBody) => BatchCheckAnswer;
  stop(): Promise<void>;
}

export async function startWalletStandIn(): Promise<WalletStandIn> {
  const standIn: WalletStandIn = {
    url: '',
    received: [],
    answer: () => ({ kind: 'pass' }),
    batchReceived: [],
    batchAnswer: passEveryItem,
    stop: () => Promise.resolve(),
  };
  const server = await startJsonStandIn<unknown>(({ method, url, body }, send) => {
    if (method === 'POST' && url === '/internal/transfer-batches/checks') {
      const batch = body as BatchCheckRequestBody;
      standIn.batchReceived.push(batch);
      const answer = standIn.batchAnswer(batch);
      return answer.kind === 'answer' ? send(200, answer.body) : send(answer.status, { success: false, code: 'PKC_7002', message: 'Internal error; retry' });
    }
    const check = body as CheckRequestBody;
    standIn.received.push({ path: url, body: check });
    if (method !== 'POST' || url !== '/internal/checks') return send(404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
    const answer = standIn.answer(check);
    switch (answer.kind) {
      case 'pass':
        return send(200, {
          recipient: { name: answer.name ?? 'Comfort Doe', phone: check.phone, accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
          userBalanceMinor: answer.userBalanceMinor ?? '100000000',
          partnerBalanceMinor: answer.partnerBalanceMinor ?? '500000000',
        });
      case 'refuse':
        return send(answer.status, { success: false, code: answer.code, message: `refused with ${answer.code}` });
      case 'fail':
        return send(answer.status, { success: false, code: 'PKC_7002', message: 'Internal error; retry' });
      case 'hang':
        setTimeout(() => send(200, {}), answer.delayMs).unref();
        return undefined;
    }
  });
  standIn.url = server.url;
  standIn.stop = () => server.stop();
  return standIn;
}

/** The default batch answer: every item passes, named after its phone, the partner holding 5,000,000.00. */
export function passEveryItem(body: BatchCheckRequestBody): BatchCheckAnswer {
  return {
    kind: 'answer',
    body: { partnerBalanceMinor: '500000000', results: body.items.map((item) => ({ outcome: 'passed', phone: item.phone, recipientName: `Recipient ${item.phone}` })) },
  };
}
