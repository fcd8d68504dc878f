export { runUntilSignalled, type StoppableService } from './run-until-signalled';
export {
  hostService,
  baseServiceConfigSchema,
  type BaseServiceEnv,
  type ServiceHostOptions,
  type ServiceContext,
  type HostedService,
} from './service-host';
