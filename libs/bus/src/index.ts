export { connectBus, type Bus, type BusOptions } from './bus';
export { BusError, type BusErrorCode } from './bus-error';
export { consumeOutcomes, type ConsumeOutcome } from './bus-metrics';
export type { SubscribeOptions } from './consumer';
export { enqueueEvent, outboxInsertWhenRowsIn } from './outbox';
export { startOutboxRelay, publishAttemptsMaxDefault, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay';
export { listParkedOutboxRows, replayParkedOutboxRows, type ParkedOutboxRow } from './outbox-parking';
export { processOnce, type ProcessOutcome } from './process-once';
export { deadLetterNames, deliveryLimit, type DeadLetterNames, type QueueKind } from './topology';
