import { PkcError } from '@pwa/errors';
import { createGroupCommitter, type GroupCommitPorts, type GroupedPosting } from '../../src/use-cases/group-commit';
import type { BatchItemResult, TransferBatchRequest } from '../../src/use-cases/post-transfer-batch';
import type { PostingOutcome } from '../../src/use-cases/transfer-outcome';

const partnerId = '6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d';
const postedAt = new Date('2026-11-26T06:00:00.000Z');

function posting(transferId: string, overrides: Partial<GroupedPosting> = {}): GroupedPosting {
  return { type: 'disbursement', transferId, partnerId, phone: '+231770000001', currency: 'USD', amountMinor: 1_000n, feeMinor: 35n, reference: null, ...overrides };
}

const posted = (transferId: string): PostingOutcome => ({ state: 'posted', transferId, transactionId: `TXN-${transferId.toUpperCase()}`, postedAt, replayed: false });

/** Ports that record every call and answer when the test releases them (one release per call). */
function recordingPorts(answer: (item: { transferId: string }) => BatchItemResult = (item) => posted(item.transferId)) {
  const calls: { kind: 'batch' | 'single'; ids: string[] }[] = [];
  const pending: (() => void)[] = [];
  /** Answers with compute() (or its throw) once the test releases this call. */
  const later = <T>(compute: () => T): Promise<T> =>
    new Promise<void>((resolve) => pending.push(resolve)).then(compute);
  const ports: GroupCommitPorts = {
    postBatch: (batch: TransferBatchRequest) => {
      calls.push({ kind: 'batch', ids: batch.items.map((item) => item.transferId) });
      return later(() => batch.items.map(answer));
    },
    postSingly: (request) => {
      calls.push({ kind: 'single', ids: [request.transferId] });
      return later(() => {
        const result = answer(request);
        if (result.state === 'refused') throw new PkcError(result.code);
        return result;
      });
    },
  };
  const releaseNext = async (): Promise<void> => {
    await new Promise((resolve) => setImmediate(resolve));
    pending.shift()?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { ports, calls, releaseNext };
}

describe('group commit of single disbursement postings', () => {
  test('when a partner has nothing in flight, then its posting goes at once, alone, by the single path', async () => {
    const { ports, calls, releaseNext } = recordingPorts();
    const committer = createGroupCommitter(ports, { itemsMax: 50 });
    const outcome = committer.post(posting('a'));
    await releaseNext();
    await expect(outcome).resolves.toMatchObject({ state: 'posted', transferId: 'a' });
    expect(calls).toEqual([{ kind: 'single', ids: ['a'] }]);
    expect(committer.inFlight()).toBe(0);
  });

  test('when postings arrive while the partner’s group is in flight, then they go together as the next group, in arrival order, at most itemsMax at a time', async () => {
    const { ports, calls, releaseNext } = recordingPorts();
    const committer = createGroupCommitter(ports, { itemsMax: 3 });
    const outcomes = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => committer.post(posting(id)));
    await releaseNext();
    await releaseNext();
    await releaseNext();
    await expect(Promise.all(outcomes)).resolves.toHaveLength(6);
    expect(calls).toEqual([
      { kind: 'single', ids: ['a'] },
      { kind: 'batch', ids: ['b', 'c', 'd'] },
      { kind: 'batch', ids: ['e', 'f'] },
    ]);
  });

  test('when two partners post at once, then neither waits for the other', async () => {
    const { ports, calls } = recordingPorts();
    const committer = createGroupCommitter(ports, { itemsMax: 50 });
    void committer.post(posting('a'));
    void committer.post(posting('b', { partnerId: '7f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d' }));
    void committer.post(posting('c', { currency: 'LRD' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([{ kind: 'single', ids: ['a'] }, { kind: 'single', ids: ['b'] }, { kind: 'single', ids: ['c'] }]);
    expect(committer.inFlight()).toBe(3);
  });

  test('when a group refuses one item, then only that caller gets its PkcError and the others their postings', async () => {
    const { ports, releaseNext } = recordingPorts((item) => (item.transferId === 'c' ? { state: 'refused', transferId: 'c', code: 'PKC_4002' } : posted(item.transferId)));
    const committer = createGroupCommitter(ports, { itemsMax: 50 });
    const outcomes = ['a', 'b', 'c', 'd'].map((id) => committer.post(posting(id)).then((outcome) => outcome.state, (error: PkcError) => error.code));
    await releaseNext();
    await releaseNext();
    await expect(Promise.all(outcomes)).resolves.toEqual(['posted', 'posted', 'PKC_4002', 'posted']);
  });

  test('when the same transfer id waits twice, then the repeat goes in a later group, never beside itself', async () => {
    const { ports, calls, releaseNext } = recordingPorts();
    const committer = createGroupCommitter(ports, { itemsMax: 50 });
    const outcomes = ['a', 'b', 'b', 'c'].map((id) => committer.post(posting(id)));
    await releaseNext();
    await releaseNext();
    await releaseNext();
    await Promise.all(outcomes);
    expect(calls).toEqual([{ kind: 'single', ids: ['a'] }, { kind: 'batch', ids: ['b', 'c'] }, { kind: 'single', ids: ['b'] }]);
  });

  test('when a whole group fails, then each of its postings is tried alone and answered by its own outcome', async () => {
    const calls: string[] = [];
    const committer = createGroupCommitter(
      {
        postBatch: (batch) => {
          calls.push(`batch ${batch.items.map((item) => item.transferId).join(',')}`);
          return Promise.reject(new Error('connection lost'));
        },
        postSingly: async (request) => {
          calls.push(`single ${request.transferId}`);
          await new Promise((resolve) => setImmediate(resolve));
          if (request.transferId === 'c') throw new PkcError('PKC_3001');
          return posted(request.transferId);
        },
      },
      { itemsMax: 50 },
    );
    const outcomes = ['a', 'b', 'c'].map((id) => committer.post(posting(id)).then((outcome) => outcome.state, (error: PkcError) => error.code));
    await expect(Promise.all(outcomes)).resolves.toEqual(['posted', 'posted', 'PKC_3001']);
    expect(calls).toEqual(['single a', 'batch b,c', 'single b', 'single c']);
  });
});
