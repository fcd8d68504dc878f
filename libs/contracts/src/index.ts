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
