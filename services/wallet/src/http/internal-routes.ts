import type { Express } from 'express';
import type { z } from '@pwa/config';
import type {
  walletCancellationAnswerSchema,
  walletCheckAnswerSchema,
  walletTransferAnswerSchema,
  walletTransferBatchAnswerSchema,
  walletTransferBatchCheckAnswerSchema,
} from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { sendErrorEnvelope } from '@pwa/http';
import { checkTransfer } from '../use-cases/check-transfer';
import { postTransfer, type TransferRequest } from '../use-cases/post-transfer';
import type { GroupCommitter } from '../use-cases/group-commit';
import { postTransferBatch, type BatchItemResult } from '../use-cases/post-transfer-batch';
import { checkTransferBatch } from '../use-cases/check-transfer-batch';
import { cancelTransfer } from '../use-cases/cancel-transfer';
import { checkLedger } from '../use-cases/check-ledger';
import type { PostingOutcome } from '../use-cases/transfer-outcome';
import type { PostingFaultInjection } from '../config';
import { parseCheckRequest, parseTransferBatchCheckRequest, parseTransferBatchRequest, parseTransferId, parseTransferRequest } from './request-schemas';
import type { LedgerMetrics } from './ledger-metrics';

export interface InternalRouteSettings {
  /** Sandbox fault injection of postings (none in production); from the service's configuration. */
  postingFaults: PostingFaultInjection;
  metrics: LedgerMetrics;
  /** Group commit of single disbursement postings (decision 0056); undefined when it is off. */
  groupCommitter: GroupCommitter | undefined;
}

/**
 * Endpoints for quotes, collections and disbursements on the internal network; the gateway never
 * routes to them. Contract: libs/contracts internal/wallet (requests parsed with it, answers typed
 * by it), described in docs/internal-contracts.md, "Wallet service HTTP API".
 */
export function mountInternalRoutes(app: Express, pool: Pool, settings: InternalRouteSettings): void {
  app.post('/internal/checks', async (req, res) => {
    const result = await checkTransfer(pool, parseCheckRequest(req.body));
    res.json({
      recipient: result.recipient,
      userBalanceMinor: result.userBalanceMinor.toString(),
      partnerBalanceMinor: result.partnerBalanceMinor.toString(),
    } satisfies z.input<typeof walletCheckAnswerSchema>);
  });

  app.post('/internal/transfers', async (req, res) => {
    const request = parseTransferRequest(req.body);
    const outcome = await postOneTransfer(pool, request, settings);
    if (outcome.state === 'cancelled') {
      // 409, not the catalogue's 504: the caller cancelled this id itself (after its own timeout).
      sendErrorEnvelope(res, 409, 'PKC_7004', `Transfer ${outcome.transferId} was cancelled; nothing was posted`);
      return;
    }
    // A replay (a caller's retry after a lost answer) moved no money now: it is not counted again.
    if (!outcome.replayed) settings.metrics.posted(request.type, request.currency, request.amountMinor);
    res.json({
      transferId: outcome.transferId,
      transactionId: outcome.transactionId,
      postedAt: outcome.postedAt.toISOString(),
      status: 'posted',
    } satisfies z.input<typeof walletTransferAnswerSchema>);
  });

  app.post('/internal/transfer-batches', async (req, res) => {
    const request = parseTransferBatchRequest(req.body);
    const results = await postTransferBatch(pool, request);
    // Each item posted now is one posting of the ledger's metrics; replays and refusals moved nothing.
    results.forEach((result, index) => {
      const item = request.items[index];
      if (result.state === 'posted' && !result.replayed && item) settings.metrics.posted(request.type, request.currency, item.amountMinor);
    });
    res.json({ results: results.map(batchResultView) } satisfies z.input<typeof walletTransferBatchAnswerSchema>);
  });

  // Read-only (decision 0055): writes nothing, consumes no limit, locks no row; the partner's balance never refuses an item here.
  app.post('/internal/transfer-batches/checks', async (req, res) => {
    const result = await checkTransferBatch(pool, parseTransferBatchCheckRequest(req.body));
    res.json({
      partnerBalanceMinor: result.partnerBalanceMinor.toString(),
      results: result.results,
    } satisfies z.input<typeof walletTransferBatchCheckAnswerSchema>);
  });

  app.post('/internal/transfers/:transferId/cancel', async (req, res) => {
    res.json(cancellationView(await cancelTransfer(pool, parseTransferId(req.params.transferId))));
  });

  app.get('/internal/ledger/invariants', async (_req, res) => {
    res.json(await checkLedger(pool));
  });
}

/**
 * A single posting: grouped with the partner's other disbursement postings when group commit is on
 * (decision 0056), else in a transaction of its own. The sandbox's fault injection needs the single
 * path (its delay points are inside it), so a wallet with injected faults never groups.
 */
function postOneTransfer(pool: Pool, request: TransferRequest, settings: InternalRouteSettings): Promise<PostingOutcome> {
  const grouped = settings.groupCommitter !== undefined && settings.postingFaults.postDelayMs === 0 && request.type === 'disbursement';
  return grouped && settings.groupCommitter ? settings.groupCommitter.post({ ...request, type: 'disbursement' }) : postTransfer(pool, request, settings.postingFaults);
}

function batchResultView(result: BatchItemResult): z.input<typeof walletTransferBatchAnswerSchema>['results'][number] {
  switch (result.state) {
    case 'posted':
      return { transferId: result.transferId, outcome: 'posted', transactionId: result.transactionId, postedAt: result.postedAt.toISOString(), replayed: result.replayed };
    case 'refused':
      return { transferId: result.transferId, outcome: 'refused', code: result.code };
    case 'cancelled':
      return { transferId: result.transferId, outcome: 'cancelled' };
  }
}

function cancellationView(outcome: PostingOutcome): z.input<typeof walletCancellationAnswerSchema> {
  if (outcome.state === 'cancelled') return { transferId: outcome.transferId, state: 'cancelled' };
  return { transferId: outcome.transferId, state: 'posted', transactionId: outcome.transactionId, postedAt: outcome.postedAt.toISOString() };
}
