import type { JsonValue } from '@pwa/audit';
import type { FourEyesAction } from '../domain/approval-rules';
import { feeScheduleTargetOf, tierLimitTargetOf, type FeeScheduleParameters, type TierLimitParameters } from '../domain/four-eyes-changes';
import type { ActionExecutor, ActionExecutors, AdminExecution, ApprovedChange } from './execute-approved-request';

/**
 * The owning services' admin routes as the back-office needs them (src/upstream/ implements them
 * over HTTP). Each takes the person and the approval; each throws when the owner gave no answer.
 */
type Actor = ApprovedChange['actor'];
type Approval = ApprovedChange['approval'];

export interface WalletAdminPort {
  executeFunding(funding: { transferId: string; partnerId: string; currency: 'LRD' | 'USD'; amountMinor: string; direction: 'credit' | 'debit'; reference: string; actor: Actor; approval: Approval }, httpRequestId: string | null): Promise<AdminExecution>;
  reverseDisbursement(reversal: { requestId: string; referenceId: string; reason: string; actor: Actor; approval: Approval }, httpRequestId: string | null): Promise<AdminExecution>;
  setTierLimit(change: { requestId: string; tier: string; transactionType: string; currency: string; limits: { [key: string]: string | number }; reason: string; actor: Actor; approval: Approval }, httpRequestId: string | null): Promise<AdminExecution>;
}

export interface AuthAdminPort {
  changePartner(change: { requestId: string; partnerId: string; change: { [key: string]: JsonValue }; reason: string; actor: Actor; approval: Approval }, httpRequestId: string | null): Promise<AdminExecution>;
}

export interface QuotesAdminPort {
  setFeeSchedule(change: { requestId: string; type: string; currency: string; tiers?: JsonValue; minimumFeeMinor?: string; maximumFeeMinor?: string; reason: string; actor: Actor; approval: Approval }, httpRequestId: string | null): Promise<AdminExecution>;
}

/** The back-office's parameter names of a tier limit change and the wallet's. */
const walletLimitNames: Readonly<Record<keyof TierLimitParameters, string>> = {
  perTransactionMinor: 'perTransactionMaxMinor',
  dailyMinor: 'dailyMaxMinor',
  weeklyMinor: 'weeklyMaxMinor',
  monthlyMinor: 'monthlyMaxMinor',
  yearlyMinor: 'yearlyMaxMinor',
  perHourCount: 'perHourCountMax',
  perDayCount: 'perDayCountMax',
};

/**
 * Which owner executes each action and with what body: fundings, reversals and tier limits on the
 * wallet, fee schedules on quotes, a partner's status, permissions and rate limit on auth. The
 * request id is every change's idempotency key (the transfer id of a funding or a reversal).
 */
export function actionExecutorsOf(owners: { wallet: WalletAdminPort; auth: AuthAdminPort; quotes: QuotesAdminPort }): ActionExecutors {
  const { wallet, auth, quotes } = owners;
  const funding =
    (direction: (parameters: { direction?: 'credit' | 'debit' }) => 'credit' | 'debit'): ActionExecutor =>
    ({ request, actor, approval }, httpRequestId) => {
      const parameters = request.parameters as { currency: 'LRD' | 'USD'; amountMinor: string; direction?: 'credit' | 'debit' };
      return wallet.executeFunding(
        { transferId: request.requestId, partnerId: String(request.target.id), currency: parameters.currency, amountMinor: parameters.amountMinor, direction: direction(parameters), reference: request.reason, actor, approval },
        httpRequestId,
      );
    };
  const partnerChange: ActionExecutor = ({ request, actor, approval }, httpRequestId) =>
    auth.changePartner({ requestId: request.requestId, partnerId: String(request.target.id), change: request.parameters as { [key: string]: JsonValue }, reason: request.reason, actor, approval }, httpRequestId);
  const executors: Record<FourEyesAction, ActionExecutor> = {
    'partner.fund': funding(() => 'credit'),
    'partner.funding.correct': funding((parameters) => parameters.direction ?? 'debit'),
    'disbursement.reverse': ({ request, actor, approval }, httpRequestId) =>
      wallet.reverseDisbursement({ requestId: request.requestId, referenceId: String(request.target.id), reason: request.reason, actor, approval }, httpRequestId),
    'tier_limit.set': ({ request, actor, approval }, httpRequestId) => {
      const key = tierLimitTargetOf(String(request.target.id));
      const limits = Object.fromEntries(Object.entries(request.parameters as TierLimitParameters).map(([name, value]) => [walletLimitNames[name as keyof TierLimitParameters], value]));
      return wallet.setTierLimit({ requestId: request.requestId, ...key, limits, reason: request.reason, actor, approval }, httpRequestId);
    },
    'fee_schedule.set': ({ request, actor, approval }, httpRequestId) => {
      const parameters = request.parameters as FeeScheduleParameters;
      return quotes.setFeeSchedule({ requestId: request.requestId, ...feeScheduleTargetOf(String(request.target.id)), ...parameters, reason: request.reason, actor, approval }, httpRequestId);
    },
    'partner.status.set': partnerChange,
    'partner.permissions.set': partnerChange,
    'partner.rate_limit.set': partnerChange,
  };
  return executors;
}
