export {
  runUntilSignalled,
  runServiceProcess,
  gracefulShutdown,
  shutdownDrainDelayMsDefault,
  shutdownTimeoutMsDefault,
  type StoppableService,
  type ShutdownSettings,
  type ServiceProcessOptions,
} from './run-until-signalled';
export {
  runShutdownSequence,
  stopInOrder,
  flushAndStopRelay,
  type ShutdownStep,
  type ShutdownSequence,
  type ShutdownReport,
  type ShutdownSequenceOptions,
  type FlushableRelay,
} from './graceful-shutdown';
export {
  prepareService,
  type PrepareServiceOptions,
  type PreparedService,
  type ListenOptions,
  type ServiceContext,
  type HostedService,
  type ServiceHostParts,
} from './service-host';
export { startServiceOutboxRelay, type ServiceOutboxRelayOptions } from './service-outbox-relay';
export { startPeriodicTask, type PeriodicTask, type PeriodicTaskOptions, type FailureLog } from './periodic-task';
export { migrateOnlyThenEnd, type MigrateOnlyOptions } from './migrate-only';
export { runOperatorCli, type OperatorCli, type OperatorCommandResult } from './operator-cli';
export { applyApprovedChangeOnce, type ApprovedChange, type ApprovedChangeRequest } from './approved-changes/apply-approved-change';
export { lockRequestId, type OperatorChangeRecord } from './approved-changes/operator-change-store';
export { databaseAndRedisReadiness } from './readiness-checks';
