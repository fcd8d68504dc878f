export { ContractViolationError, isContractViolation } from './contract-violation';
export {
  eventEnvelopeSchema,
  parseEventEnvelope,
  createEventEnvelope,
  type EventEnvelope,
  type CreateEventEnvelopeOptions,
} from './envelope';
export {
  partnerEventTypes,
  partnerStatuses,
  partnerPermissions,
  partnerEventDataSchema,
  parsePartnerEvent,
  isPartnerEventType,
  type PartnerEventType,
  type PartnerStatus,
  type PartnerPermission,
  type PartnerEventData,
  type PartnerEvent,
} from './partner-events';
export { eventCurrencies, failureReasonField, type EventCurrency, type FailureReason } from './event-fields';
export {
  collectionEventTypes,
  collectionEventStatuses,
  collectionStatusOfEvent,
  collectionEventDataSchema,
  parseCollectionEventData,
  parseCollectionEvent,
  isCollectionEventType,
  type CollectionEventType,
  type CollectionEventStatus,
  type CollectionEventData,
  type CollectionEvent,
} from './collection-events';
export {
  disbursementEventTypes,
  disbursementEventStatuses,
  disbursementReferenceIdPattern,
  disbursementEventDataSchema,
  parseDisbursementEventData,
  parseDisbursementEvent,
  isDisbursementEventType,
  type DisbursementEventType,
  type DisbursementEventStatus,
  type DisbursementEventData,
  type DisbursementEvent,
} from './disbursement-events';
export { parseConfirmRequestBody, isUuid, externalIdLengthMax, noteLengthMax, type ConfirmRequestBody } from './confirm-request';
