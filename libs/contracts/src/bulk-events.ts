import { z } from 'zod';
import type { EventEnvelope } from './envelope';
import { apiFeeField, eventCurrencies, externalIdField, defineEventFamily } from './event-fields';

/**
 * Published by the disbursements service (routing key = type) when the last item of a bulk payout
 * is final (issue 20, decision 0055): bulk.completed, with the bulk's status (completed: every item
 * paid; completed_with_failures: at least one item failed), its counts and its totals. Each item
 * also has its own disbursement.completed or disbursement.failed event.
 */
export const bulkEventTypes = ['bulk.completed'] as const;
export type BulkEventType = (typeof bulkEventTypes)[number];

/** A bulk's statuses: processing until every item is final, then one of the two final ones. */
export const bulkStatuses = ['processing', 'completed', 'completed_with_failures'] as const;
export type BulkStatus = (typeof bulkStatuses)[number];

/** PKB-<milliseconds since the epoch>-<24 uppercase hex>, as the disbursements service makes them. */
export const bulkReferenceIdPattern = /^PKB-\d{13,16}-[0-9A-F]{24}$/;

const countField = z.number().int().min(0);
const nonNegativeAmountField = apiFeeField;

/**
 * Version 1 of the `data` of a bulk event: the bulk's id (bulkId = PKB-…) and externalId, its final
 * status, currency, how many items it had and how they ended, and its money: the amount and fee of
 * the items paid (completedAmount, completedFee) out of those it accepted (totalAmount, totalFee).
 */
export const bulkEventDataSchema = z
  .object({
    eventId: z.uuid(),
    partnerId: z.uuid(),
    event: z.enum(bulkEventTypes),
    bulkId: z.string().regex(bulkReferenceIdPattern),
    externalId: externalIdField,
    status: z.enum(['completed', 'completed_with_failures']),
    currency: z.enum(eventCurrencies),
    itemCount: countField.min(1),
    completedCount: countField,
    failedCount: countField,
    totalAmount: nonNegativeAmountField,
    totalFee: nonNegativeAmountField,
    completedAmount: nonNegativeAmountField,
    completedFee: nonNegativeAmountField,
    timestamp: z.iso.datetime(),
  })
  .refine((data) => data.completedCount + data.failedCount === data.itemCount, { message: 'every item is completed or failed', path: ['itemCount'] })
  .refine((data) => (data.status === 'completed') === (data.failedCount === 0), { message: 'status and failedCount disagree', path: ['status'] });
export type BulkEventData = z.infer<typeof bulkEventDataSchema>;

export type BulkEvent = EventEnvelope<BulkEventData> & { type: BulkEventType };

const bulkEvents = defineEventFamily({ family: 'bulk', types: bulkEventTypes, versions: [1], dataSchema: bulkEventDataSchema, invalidDataMessage: 'Invalid bulk event data' });
export const isBulkEventType = bulkEvents.isType;
/** Parses the `data` of a bulk event (version 1), or throws ContractViolationError. */
export const parseBulkEventData = bulkEvents.parseData;
/** Narrows an envelope to a bulk event, or throws ContractViolationError (dead-letter it). */
export const parseBulkEvent = bulkEvents.parseEvent;
