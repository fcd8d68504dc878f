export { runUntilSignalled, type StoppableService } from './run-until-signalled';
export {
  hostService,
  type ServiceHostOptions,
  type ServiceContext,
  type HostedService,
} from './service-host';
export { migrateOnlyAndExit, type MigrateOnlyOptions } from './migrate-only';
export { runOperatorCli, type OperatorCli, type OperatorCommandResult } from './operator-cli';
