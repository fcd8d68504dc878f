import fc from 'fast-check';
import {
  collectionStatuses,
  diagnoseRefusedAction,
  isActorOf,
  isFinal,
  nextStatus,
  partnerVisibleStatus,
  refusedStatusWording,
  type CollectionAction,
  type CollectionActor,
  type CollectionStatus,
  type RefusedActionFacts,
} from '../../src/domain/collection-state-machine';

const actions: CollectionAction[] = ['approve', 'decline', 'expire', 'cancel', 'post', 'fail'];
const allowed: Record<string, CollectionStatus> = {
  'pending_approval/approve': 'processing',
  'pending_approval/decline': 'declined',
  'pending_approval/expire': 'expired',
  'pending_approval/cancel': 'cancelled',
  'processing/post': 'completed',
  'processing/fail': 'failed',
};

describe('collection state machine', () => {
  test.each(collectionStatuses.flatMap((status) => actions.map((action) => [status, action] as const)))(
    'when %s meets %s, then only the documented arrows exist',
    (status, action) => {
      expect(nextStatus(status, action)).toBe(allowed[`${status}/${action}`]);
    },
  );

  test('when a status is final, then no action leads anywhere from it', () => {
    for (const status of collectionStatuses.filter(isFinal)) {
      expect(actions.map((action) => nextStatus(status, action))).toEqual(actions.map(() => undefined));
    }
    expect(collectionStatuses.filter(isFinal)).toEqual(['completed', 'declined', 'expired', 'failed', 'cancelled']);
  });

  describe('diagnosis of a refused action (one read: the row and the database clock)', () => {
    const now = new Date('2030-01-01T00:10:00Z');
    const future = new Date('2030-01-01T00:15:00Z');
    const past = new Date('2030-01-01T00:09:59Z');
    const partnerId = '0b5c2f7e-8a51-4c0e-9d43-3f3f0c1d2e4a';
    const otherPartnerId = '7c1d9e40-3f2a-4b85-a6d1-9e0f2b4c8a13';
    const phone = '+231770000001';
    const owner: CollectionActor = { kind: 'partner', partnerId };
    const row = (status: CollectionStatus, expiresAt: Date) => ({ status, expiresAt, partnerId, phone });
    const facts = (status: CollectionStatus, expiresAt: Date): RefusedActionFacts => ({ collection: row(status, expiresAt), now });

    test('when no row has the referenceId, then it is 404 PKC_6002, whoever asks', () => {
      for (const actor of [owner, { kind: 'user' } as const, { kind: 'user', phone } as const]) {
        expect(diagnoseRefusedAction({ collection: undefined, now }, actor)).toEqual({ code: 'PKC_6002' });
      }
    });

    test('when the collection is another partner’s or another user’s, then it is 403 PKC_6005 before its state is told', () => {
      for (const status of collectionStatuses) {
        expect(diagnoseRefusedAction(facts(status, past), { kind: 'partner', partnerId: otherPartnerId })).toEqual({ code: 'PKC_6005' });
        expect(diagnoseRefusedAction(facts(status, future), { kind: 'user', phone: '+231880000002' })).toEqual({ code: 'PKC_6005' });
      }
    });

    test('when the app names no phone, then any user may act (the app’s session stands for it)', () => {
      expect(diagnoseRefusedAction(facts('declined', future), { kind: 'user' })).toEqual({ code: 'PKC_6004', status: 'declined' });
    });

    test('when the collection expired, then it is 410 PKC_6003 and needs no further change', () => {
      expect(diagnoseRefusedAction(facts('expired', past), owner)).toEqual({ code: 'PKC_6003', expireNow: false });
    });

    test('when it is still pending but past its window (the sweeper has not reached it), then it is PKC_6003 and must be expired now', () => {
      expect(diagnoseRefusedAction(facts('pending_approval', past), owner)).toEqual({ code: 'PKC_6003', expireNow: true });
      // The window is open until expiresAt, exclusive: at expiresAt itself it has passed.
      expect(diagnoseRefusedAction(facts('pending_approval', now), { kind: 'user', phone })).toEqual({ code: 'PKC_6003', expireNow: true });
    });

    test.each(['processing', 'completed', 'declined', 'failed', 'cancelled'] as const)('when it is %s, then it is 409 PKC_6004 naming that status, within the window or not', (status) => {
      expect(diagnoseRefusedAction(facts(status, future), owner)).toEqual({ code: 'PKC_6004', status });
      expect(diagnoseRefusedAction(facts(status, past), owner)).toEqual({ code: 'PKC_6004', status });
    });

    test('when the refusal names the status, then processing reads as an approval under way and the others as they are', () => {
      expect(refusedStatusWording('processing')).toBe('approved (its payment is under way)');
      expect(refusedStatusWording('cancelled')).toBe('cancelled');
    });

    test('when any row, actor and clock are diagnosed, then the code follows the documented order and 410 asks for an expiry only of a pending row', () => {
      const statuses = fc.constantFrom(...collectionStatuses);
      const actors = fc.constantFrom<CollectionActor>(owner, { kind: 'partner', partnerId: otherPartnerId }, { kind: 'user' }, { kind: 'user', phone }, { kind: 'user', phone: '+231880000002' });
      fc.assert(
        fc.property(statuses, fc.integer({ min: -600_000, max: 600_000 }), actors, (status, offsetMs, actor) => {
          const diagnosis = diagnoseRefusedAction({ collection: row(status, new Date(now.getTime() + offsetMs)), now }, actor);
          if (!isActorOf(row(status, now), actor)) return diagnosis.code === 'PKC_6005';
          if (status === 'expired') return diagnosis.code === 'PKC_6003' && !diagnosis.expireNow;
          if (status === 'pending_approval') return offsetMs <= 0 ? diagnosis.code === 'PKC_6003' && diagnosis.expireNow : diagnosis.code === 'PKC_6004';
          return diagnosis.code === 'PKC_6004' && diagnosis.status === status;
        }),
      );
    });
  });

  test('when the partner reads a processing collection, then it shows as pending_approval; every other status as it is', () => {
    expect(collectionStatuses.map(partnerVisibleStatus)).toEqual(['pending_approval', 'pending_approval', 'completed', 'declined', 'expired', 'failed', 'cancelled']);
  });
});
