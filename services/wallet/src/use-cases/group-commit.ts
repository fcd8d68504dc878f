import type { Currency } from '@pwa/money';
import { PkcError } from '@pwa/errors';
import type { BatchItemResult, TransferBatchItem, TransferBatchRequest } from './post-transfer-batch';
import type { PostingOutcome } from './transfer-outcome';
import type { TransferRequest } from './post-transfer';

/**
 * Group commit of single disbursement postings (issue 20, decision 0056). Every posting of one
 * partner takes that partner's ledger account row, so a busy partner's single postings queue on the
 * row one transaction at a time. Here the postings of one partner, currency and type that arrive
 * while that partner's previous group is being posted wait for it, and are then posted together as
 * one batch (decision 0054: one transaction, the partner's row taken once, each item its own
 * balanced posting decided in arrival order, a refused item failing only itself).
 *
 * Leader and followers, no timer: a posting that finds no group in flight for its partner goes at
 * once (a group of one), so an idle partner's posting waits for nothing. The extra wait is bounded:
 * a posting waits at most for the one group in flight of its partner (at most `itemsMax` items)
 * before its own group (at most `itemsMax` items) is posted.
 *
 * Each caller gets its own item's answer, exactly as a single posting answers: posted (now, or an
 * earlier call's: replayed), cancelled, or refused with the first failing rule's code. The same
 * transfer id twice never goes into one group (a retry waiting beside its first attempt goes in the
 * next, where it is answered as a replay). When a group fails as a whole for a reason other than a
 * transient conflict (which the batch retries itself), its postings are posted one by one instead,
 * so no posting fails because of another's.
 */
export interface GroupCommitPorts {
  postBatch(batch: TransferBatchRequest): Promise<BatchItemResult[]>;
  postSingly(request: GroupedPosting): Promise<PostingOutcome>;
}

export type GroupedPosting = TransferRequest & { type: 'disbursement' };

interface Waiting {
  request: GroupedPosting;
  resolve: (outcome: PostingOutcome) => void;
  reject: (error: unknown) => void;
}

interface PartnerQueue {
  waiting: Waiting[];
}

export interface GroupCommitter {
  /** Posts the disbursement with the partner's other postings that arrive meanwhile; throws PkcError with the refusal's code, as a single posting does. */
  post(request: GroupedPosting): Promise<PostingOutcome>;
  /** How many groups are being posted now (one per busy partner, currency and type). */
  inFlight(): number;
}

export function createGroupCommitter(ports: GroupCommitPorts, options: { itemsMax: number; onGroupPosted?: (size: number) => void }): GroupCommitter {
  const queues = new Map<string, PartnerQueue>();

  const drain = async (key: string, queue: PartnerQueue): Promise<void> => {
    while (queue.waiting.length > 0) {
      const group = takeGroup(queue, options.itemsMax);
      await postGroup(ports, group);
      options.onGroupPosted?.(group.length);
    }
    queues.delete(key);
  };

  return {
    post: (request) =>
      new Promise<PostingOutcome>((resolve, reject) => {
        const key = `${request.partnerId}|${request.currency}|${request.type}`;
        const existing = queues.get(key);
        if (existing) {
          existing.waiting.push({ request, resolve, reject });
          return;
        }
        const queue: PartnerQueue = { waiting: [{ request, resolve, reject }] };
        queues.set(key, queue);
        void drain(key, queue);
      }),
    inFlight: () => queues.size,
  };
}

/** The next group: up to itemsMax waiting postings in arrival order, each transfer id at most once (a repeat waits for the next group). */
function takeGroup(queue: PartnerQueue, itemsMax: number): Waiting[] {
  const group: Waiting[] = [];
  const ids = new Set<string>();
  const left: Waiting[] = [];
  for (const waiting of queue.waiting) {
    if (group.length < itemsMax && !ids.has(waiting.request.transferId)) {
      group.push(waiting);
      ids.add(waiting.request.transferId);
    } else {
      left.push(waiting);
    }
  }
  queue.waiting = left;
  return group;
}

async function postGroup(ports: GroupCommitPorts, group: readonly Waiting[]): Promise<void> {
  const [first] = group;
  if (!first) return;
  if (group.length === 1) {
    await ports.postSingly(first.request).then(first.resolve, first.reject);
    return;
  }
  let results: BatchItemResult[];
  try {
    results = await ports.postBatch(batchOf(first.request.partnerId, first.request.currency, group));
  } catch {
    // The whole group failed (and rolled back): each posting is tried alone, so none fails for another's sake.
    await Promise.all(group.map((waiting) => ports.postSingly(waiting.request).then(waiting.resolve, waiting.reject)));
    return;
  }
  group.forEach((waiting, index) => {
    const result = results[index];
    if (result === undefined) waiting.reject(new Error('the batch answered fewer results than items'));
    else if (result.state === 'refused') waiting.reject(new PkcError(result.code));
    else waiting.resolve(result);
  });
}

function batchOf(partnerId: string, currency: Currency, group: readonly Waiting[]): TransferBatchRequest {
  return {
    partnerId,
    currency,
    type: 'disbursement',
    items: group.map(({ request }): TransferBatchItem => ({
      transferId: request.transferId,
      phone: request.phone,
      amountMinor: request.amountMinor,
      feeMinor: request.feeMinor,
      reference: request.reference,
      referenceId: request.referenceId ?? null,
      externalId: request.externalId ?? null,
    })),
  };
}
