import { mayPerform, type OperatorRole } from './operator-roles';

/**
 * Maker-checker ("four eyes"): the changes that move money or change what a partner may do are
 * requests one operator makes and a second, different operator with the checker role decides.
 * The request's id is the idempotency key of its execution (the wallet's transfer id for a
 * funding), so an approved request executes once whatever retries or crashes happen.
 */
export const fourEyesActions = [
  'partner.fund',
  'partner.funding.correct',
  'disbursement.reverse',
  'fee_schedule.set',
  'tier_limit.set',
  'partner.status.set',
  'partner.permissions.set',
  'partner.rate_limit.set',
] as const;
export type FourEyesAction = (typeof fourEyesActions)[number];

/**
 * The actions whose approved requests the back-office can execute: every one, each through its
 * owning service's admin route (decision 0069). A future action stays out of this list, and is
 * refused as a request, until its owner has a route, so no checker approves a change that does nothing.
 */
export const executableFourEyesActions: readonly FourEyesAction[] = fourEyesActions;

export function isFourEyesAction(value: string): value is FourEyesAction {
  return (fourEyesActions as readonly string[]).includes(value);
}

export const approvalStatuses = ['pending', 'approved', 'rejected', 'expired', 'executed', 'failed'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

/** 24 hours: a request nobody decided by then changes nothing. */
export const defaultRequestLifetimeSeconds = 24 * 60 * 60;
export const requestLifetimeSecondsMax = 7 * 24 * 60 * 60;

export interface ApprovalRequestState {
  makerId: string;
  status: ApprovalStatus;
  expiresAt: Date;
}

export interface Decider {
  operatorId: string;
  roles: readonly OperatorRole[];
}

/** Why a decision is refused; the HTTP layer maps each to its catalogue code. */
export type DecisionRefusal = 'not-a-checker' | 'own-request' | 'already-decided' | 'expired';

/**
 * Whether `decider` may approve or reject the request at `now`: a checker, not its maker, while it
 * is pending and unexpired. The store applies the same conditions in one UPDATE, so two checkers
 * at once or a decision racing the expiry still end with one outcome; this function explains a
 * refusal and refuses early.
 */
export function decisionRefusal(request: ApprovalRequestState, decider: Decider, now: Date): DecisionRefusal | undefined {
  if (!mayPerform(decider.roles, 'decide-request')) return 'not-a-checker';
  if (request.makerId === decider.operatorId) return 'own-request';
  if (request.status !== 'pending') return request.status === 'expired' ? 'expired' : 'already-decided';
  if (request.expiresAt.getTime() <= now.getTime()) return 'expired';
  return undefined;
}

/** Whether the operator may ask for a four-eyes change at all. */
export function mayRequestChange(roles: readonly OperatorRole[]): boolean {
  return mayPerform(roles, 'request-change');
}

/** The lifetime a maker asked for, bounded; the default when none was asked for. */
export function requestLifetimeSeconds(asked: number | undefined): number {
  if (asked === undefined) return defaultRequestLifetimeSeconds;
  if (!Number.isInteger(asked) || asked < 60 || asked > requestLifetimeSecondsMax) {
    throw new RangeError(`a request lifetime is a whole number of seconds from 60 to ${requestLifetimeSecondsMax}`);
  }
  return asked;
}
