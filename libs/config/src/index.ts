import { z } from 'zod';

export { z };
export { ConfigError, loadConfig, type LoadConfigOptions } from './load-config';
export { fields } from './fields';
export { baseServiceConfigSchema, type BaseServiceEnv } from './base-service';
export { breakerConfigFields, breakerKeysRenamedFrom, breakerSettingsOf, type BreakerConfig } from './breaker';
export { outboxConfigFields, type OutboxConfig } from './outbox';
export { shutdownConfigFields } from './shutdown';
export { telemetryConfigFields } from './telemetry';
export { renamedKeysIn, warnOfRenamedKeys, withRenamedKeys, type RenamedKey, type WarningLogger } from './renamed-keys';
export { defineTestHooks, outboxRelayTestHooks, type TestHooks } from './test-hooks';
export { consoleTlsConfigFields, tlsReloadIntervalField, consolePublicUrlField, consoleTlsProblems, resolvedConsoleTlsMode, type ConsoleTlsSettings } from './console-tls';
export { addressListField, parseAddressList, unsetWhenBlank, type AddressListShape, type NetworkAddress } from './address-list';
export { amqpConfigFields, type AmqpConfig } from './amqp';
