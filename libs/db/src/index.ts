export { createPool, withTransaction, type TransactionMode, pingDatabase, assertSafeIdentifier, type Pool, type PoolClient, type CreatePoolOptions } from './pool';
export { migrate, ensureDatabase, dropDatabase, type MigrateOptions } from './migrate';
export { isDatabaseUnavailable } from './unavailable';
