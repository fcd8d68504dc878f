import {
  collectionStatuses,
  diagnoseRefusedAction,
  isFinal,
  nextStatus,
  partnerVisibleStatus,
  type CollectionAction,
  type CollectionStatus,
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

  describe('diagnosis of a refused user action', () => {
    const now = new Date('2030-01-01T00:10:00Z');
    const future = new Date('2030-01-01T00:15:00Z');
    const past = new Date('2030-01-01T00:09:59Z');

    test('when the collection expired, then it is 410 PKC_6003 and needs no further change', () => {
      expect(diagnoseRefusedAction('expired', past, now)).toEqual({ code: 'PKC_6003', expireNow: false });
    });

    test('when it is still pending but past its window, then it is PKC_6003 and must be expired now', () => {
      expect(diagnoseRefusedAction('pending_approval', past, now)).toEqual({ code: 'PKC_6003', expireNow: true });
      expect(diagnoseRefusedAction('pending_approval', now, now)).toEqual({ code: 'PKC_6003', expireNow: true });
    });

    test.each(['processing', 'completed', 'declined', 'failed', 'cancelled'] as const)('when it is %s, then it is 409 PKC_6004', (status) => {
      expect(diagnoseRefusedAction(status, future, now)).toEqual({ code: 'PKC_6004', expireNow: false });
      expect(diagnoseRefusedAction(status, past, now)).toEqual({ code: 'PKC_6004', expireNow: false });
    });
  });

  test('when the partner reads a processing collection, then it shows as pending_approval; every other status as it is', () => {
    expect(collectionStatuses.map(partnerVisibleStatus)).toEqual(['pending_approval', 'pending_approval', 'completed', 'declined', 'expired', 'failed', 'cancelled']);
  });
});
