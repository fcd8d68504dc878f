import type { Pool, PoolClient } from '@pwa/db';

/** A pool for single statements, or a client inside the caller's transaction. */
export type Queryable = Pool | PoolClient;
