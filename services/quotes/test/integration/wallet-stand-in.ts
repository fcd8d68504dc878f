import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from '@pwa/config';
import type { walletCheckRequestSchema, walletTransferBatchCheckAnswerSchema, walletTransferBatchCheckRequestSchema } from '@pwa/contracts';

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
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/internal/transfer-batches/checks') {
        const batch = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as BatchCheckRequestBody;
        standIn.batchReceived.push(batch);
        const answer = standIn.batchAnswer(batch);
        return answer.kind === 'answer' ? send(res, 200, answer.body) : send(res, answer.status, { success: false, code: 'PKC_7002', message: 'Internal error; retry' });
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as CheckRequestBody;
      standIn.received.push({ path: req.url ?? '', body });
      if (req.method !== 'POST' || req.url !== '/internal/checks') return send(res, 404, { success: false, code: 'PKC_6002', message: 'No such endpoint' });
      const answer = standIn.answer(body);
      switch (answer.kind) {
        case 'pass':
          return send(res, 200, {
            recipient: { name: answer.name ?? 'Comfort Doe', phone: body.phone, accountStatus: 'active', kycStatus: 'approved', hasWallet: true },
            userBalanceMinor: answer.userBalanceMinor ?? '100000000',
            partnerBalanceMinor: answer.partnerBalanceMinor ?? '500000000',
          });
        case 'refuse':
          return send(res, answer.status, { success: false, code: answer.code, message: `refused with ${answer.code}` });
        case 'fail':
          return send(res, answer.status, { success: false, code: 'PKC_7002', message: 'Internal error; retry' });
        case 'hang':
          setTimeout(() => send(res, 200, {}), answer.delayMs).unref();
          return undefined;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.stop = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return standIn;
}

/** The default batch answer: every item passes, named after its phone, the partner holding 5,000,000.00. */
export function passEveryItem(body: BatchCheckRequestBody): BatchCheckAnswer {
  return {
    kind: 'answer',
    body: { partnerBalanceMinor: '500000000', results: body.items.map((item) => ({ outcome: 'passed', phone: item.phone, recipientName: `Recipient ${item.phone}` })) },
  };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
