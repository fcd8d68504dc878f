import type { Pool, PoolClient } from 'pg';

/**
 * What a store function runs its statements on: the pool, for a single statement, or a client
 * inside the caller's transaction. Stores only ever call `query`, so that is all they are given;
 * a store cannot begin, commit or release a transaction it did not open.
 */
export type Queryable = Pick<Pool | PoolClient, 'query'>;
