import type { AdminChangeAnswer, QuotesFeeScheduleRequest } from '@pwa/contracts';
import type { Pool } from '@pwa/db';
import { PkcError } from '@pwa/errors';
import { applyApprovedChangeOnce } from '@pwa/runtime';
import { FeeScheduleError, parseFeeTiers, storedTiersOf, type FeeRule } from '../domain/fee-schedule';
import { replaceFeeScheduleIn, type StoredFeeSchedule } from '../store/fee-schedule-store';

/**
 * The back-office's approved fee schedule change (`fee_schedule.set`, decision 0069), applied once
 * per approval request: under the request id's lock, an earlier record of it is answered as it was
 * (`replayed`, no new revision; a different change under that id is 409 PKC_6001), else the
 * schedule gets its next revision (applies to the next quote, as the CLI's set-fee) and the record
 * of who, which approval, before and after commits with it. Refusals change nothing: 403 PKC_6005
 * without four eyes, 400 PKC_2008 for a schedule the rules refuse.
 */
export async function executeAdminFeeSchedule(pool: Pool, request: QuotesFeeScheduleRequest): Promise<AdminChangeAnswer> {
  return applyApprovedChangeOnce(pool, request, {
    action: 'fee_schedule.set',
    target: `${request.type}:${request.currency}`,
    parameters: parametersOf(request),
    apply: async (client) => {
      let changed: { before: StoredFeeSchedule; after: StoredFeeSchedule };
      try {
        const tiers: FeeRule['tiers'] | undefined = request.tiers === undefined ? undefined : parseFeeTiers(request.tiers);
        changed = await replaceFeeScheduleIn(client, request.type, request.currency, (current) => ({
          tiers: tiers ?? current.tiers,
          minimumFeeMinor: request.minimumFeeMinor === undefined ? current.minimumFeeMinor : BigInt(request.minimumFeeMinor),
          maximumFeeMinor: request.maximumFeeMinor === undefined ? current.maximumFeeMinor : BigInt(request.maximumFeeMinor),
        }));
      } catch (error) {
        throw refusalOf(error);
      }
      return { before: scheduleWire(changed.before), after: scheduleWire(changed.after) };
    },
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
