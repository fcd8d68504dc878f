export { createPool, serviceSearchPath, serviceStatementTimeoutMs, withTransaction, type TransactionMode, pingDatabase, assertSafeIdentifier, type Pool, type PoolClient, type CreatePoolOptions } from './pool';
export type { Queryable } from './queryable';
export { keysetPageQuery, createdAtKeySql, createdAtKeyPattern, type KeysetPageRead, type KeysetPosition, type KeysetCondition } from './keyset-page';
export { migrate, pendingMigrations, prepareSchema, migrationsAtStartOf, type MigrationsAtStart, ensureDatabase, dropDatabase, type MigrateOptions } from './migrate';
export { isDatabaseUnavailable } from './unavailable';
export {
  provisionServiceRoles,
  serviceRoleNames,
  databaseUrlForRole,
  scramSha256Verifier,
  defaultRolePrefix,
  type ServiceSchema,
  type ServiceRoleNames,
  type ProvisionServiceRolesOptions,
  type ProvisionedService,
} from './service-roles';
