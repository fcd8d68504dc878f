import { isDeepStrictEqual } from 'node:util';
import { adminApprovalProblemOf, adminChangeRefusalCodes, type AdminChangeAnswer, type QuotesFeeScheduleRequest } from '@pwa/contracts';
import { withTransaction, type Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { FeeScheduleError, parseFeeTiers, storedTiersOf, type FeeRule } from '../domain/fee-schedule';
import { replaceFeeScheduleIn, type StoredFeeSchedule } from '../store/fee-schedule-store';
import { findOperatorChange, insertOperatorChange, lockRequestId } from '../store/operator-change-store';

/**
 * The back-office's approved fee schedule change (`fee_schedule.set`, decision 0069), applied once
 * per approval request: under the request id's lock, an earlier record of it is answered as it was
 * (`replayed`, no new revision; a different change under that id is 409 PKC_6001), else the
 * schedule gets its next revision (applies to the next quote, as the CLI's set-fee) and the record
 * of who, which approval, before and after commits with it. Refusals change nothing: 403 PKC_6005
 * without four eyes, 400 PKC_2008 for a schedule the rules refuse.
 */
export async function executeAdminFeeSchedule(pool: Pool, request: QuotesFeeScheduleRequest): Promise<AdminChangeAnswer> {
  const problem = adminApprovalProblemOf(request);
  if (problem !== undefined) throw new PkcError(adminChangeRefusalCodes.notApproved, problem);
  const target = `${request.type}:${request.currency}`;
  const parameters = parametersOf(request);
  let tiers: FeeRule['tiers'] | undefined;
  try {
    tiers = request.tiers === undefined ? undefined : parseFeeTiers(request.tiers);
  } catch (error) {
    throw refusalOf(error);
  }
  return withTransaction(pool, async (client) => {
    await lockRequestId(client, request.requestId);
    const earlier = await findOperatorChange(client, request.requestId);
    if (earlier) {
      if (earlier.action !== 'fee_schedule.set' || earlier.target !== target || !isDeepStrictEqual(earlier.parameters, parameters)) {
        throw new PkcError(adminChangeRefusalCodes.requestIdUsedOtherwise, `Request id ${request.requestId} was used for another change; nothing was changed`);
      }
      return { requestId: request.requestId, replayed: true, before: earlier.before, after: earlier.after };
    }
    let changed: { before: StoredFeeSchedule; after: StoredFeeSchedule };
    try {
      changed = await replaceFeeScheduleIn(client, request.type, request.currency, (current) => ({
        tiers: tiers ?? current.tiers,
        minimumFeeMinor: request.minimumFeeMinor === undefined ? current.minimumFeeMinor : BigInt(request.minimumFeeMinor),
        maximumFeeMinor: request.maximumFeeMinor === undefined ? current.maximumFeeMinor : BigInt(request.maximumFeeMinor),
      }));
    } catch (error) {
      throw refusalOf(error);
    }
    const before = scheduleWire(changed.before);
    const after = scheduleWire(changed.after);
    await insertOperatorChange(client, {
      requestId: request.requestId,
      action: 'fee_schedule.set',
      target,
      parameters,
      before,
      after,
      reason: request.reason,
      operatorId: request.actor.operatorId,
      operatorName: request.actor.displayName,
      makerId: request.approval.makerId,
      checkerId: request.approval.checkerId,
    });
    return { requestId: request.requestId, replayed: false, before, after };
  });
}

function parametersOf(request: QuotesFeeScheduleRequest): Record<string, unknown> {
  return {
    ...(request.tiers === undefined ? {} : { tiers: request.tiers }),
    ...(request.minimumFeeMinor === undefined ? {} : { minimumFeeMinor: request.minimumFeeMinor }),
    ...(request.maximumFeeMinor === undefined ? {} : { maximumFeeMinor: request.maximumFeeMinor }),
  };
}

/** A schedule as JSON: minor units as strings, as the CLI's --json prints it. */
function scheduleWire(schedule: StoredFeeSchedule): Record<string, unknown> {
  return {
    tiers: storedTiersOf(schedule.tiers),
    minimumFeeMinor: schedule.minimumFeeMinor.toString(),
    maximumFeeMinor: schedule.maximumFeeMinor.toString(),
    revision: schedule.revision,
  };
}

function refusalOf(error: unknown): unknown {
  return error instanceof FeeScheduleError ? new PkcError('PKC_2008', `Fee schedule refused: ${error.message}; nothing was changed`) : error;
}
