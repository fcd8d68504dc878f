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
  hostService,
  type ServiceHostOptions,
  type ServiceContext,
  type HostedService,
  type ServiceHostParts,
} from './service-host';
export { startPeriodicTask, type PeriodicTask, type PeriodicTaskOptions, type FailureLog } from './periodic-task';
export { migrateOnlyThenEnd, type MigrateOnlyOptions } from './migrate-only';
export { runOperatorCli, type OperatorCli, type OperatorCommandResult } from './operator-cli';
