import { readdirSync } from 'node:fs';
import path from 'node:path';
import type * as NodePgMigrate from 'node-pg-migrate';
import { Client } from 'pg';
import { assertSafeIdentifier } from './pool';
import type { Queryable } from './queryable';

export interface MigrateOptions {
  databaseUrl: string;
  /** The service's schema; created if missing. Migrations touch only this schema. */
  schema: string;
  /**
   * Folders of the service's migrations (SQL files with "-- Up Migration" / "-- Down Migration"):
   * its own and the ones it shares with every service (libs/bus's outbox and inbox). They are read
   * as one list ordered by the files' timestamps, and each is recorded by its file name alone, so
   * where a file sits does not matter to a schema that already has it.
   */
  directories: readonly string[];
  log?: (message: string) => void;
  /**
   * lock_timeout of the migration session, in milliseconds: a migration that waits longer than this
   * for a table lock (an ALTER TABLE queued behind a long transaction, which would block every query
   * on that table while it waits) fails instead, and the whole run rolls back; run it again later.
   * Default 5000 (services pass their MIGRATION_LOCK_TIMEOUT_MS setting). 0 waits for ever.
   */
  lockTimeoutMs?: number;
}

export const defaultMigrationLockTimeoutMs = 5000;

/**
 * Applies the service's pending migrations. Replicas of one service starting together wait on an
 * advisory lock keyed by the schema, so one migrates and the others then find nothing to do.
 * (node-pg-migrate's own lock is one per database and fails instead of waiting, which would make
 * different services sharing a database fail at boot, so it is replaced by this one.)
 * The bookkeeping table lives in the service's own schema.
 * The session's lock_timeout is set only after the advisory lock is held: a replica waiting for
 * another to finish migrating waits as long as that takes, while each migration's own table locks
 * are bounded by lockTimeoutMs.
 */
const ignore = (): void => undefined;

export async function migrate(options: MigrateOptions): Promise<string[]> {
  assertSafeIdentifier(options.schema);
  const filePatterns = migrationFilePatterns(options.directories);
  const log = options.log ?? ignore;
  const lockTimeoutMs = options.lockTimeoutMs ?? defaultMigrationLockTimeoutMs;
  if (!Number.isSafeInteger(lockTimeoutMs) || lockTimeoutMs < 0) throw new Error('lockTimeoutMs must be a whole number of milliseconds');
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  try {
    // Nearly every start finds nothing to apply: one read says so, without the lock or loading the
    // runner (a replica, an operator CLI's every command). What is pending is applied under the lock.
    if ((await pendingMigrations(client, options)).length === 0) return [];
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`pwa-migrate:${options.schema}`]);
    // SET takes no bind parameters; the value is a checked integer.
    await client.query(`SET lock_timeout = ${lockTimeoutMs}`);
    // CREATE SCHEMA IF NOT EXISTS needs CREATE on the database even when the schema exists, which a
    // service's own owner role (libs/db service-roles) does not have: create it only when missing.
    const existing = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [options.schema]);
    if (existing.rowCount === 0) await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
    const applied = await loadMigrationRunner()({
      dbClient: client,
      dir: filePatterns,
      useGlob: true,
      direction: 'up',
      count: Infinity,
      migrationsTable: 'schema_migrations',
      schema: options.schema,
      migrationsSchema: options.schema,
      createSchema: false,
      createMigrationsSchema: false,
      checkOrder: true,
      singleTransaction: true,
      noLock: true,
      logger: { debug: ignore, info: log, warn: log, error: log },
    });
    return applied.map((migration) => migration.name);
  } finally {
    await client.end();
  }
}

/**
 * The migrations in these folders that the schema has not recorded, in file order; none when a
 * migration run (a boot's or the deployment's Job) applied them all. One read of the bookkeeping
 * table, which the runtime role may read (it has SELECT on its schema's tables), and nothing
 * session-scoped, so it works through a transaction-mode pooler.
 */
export async function pendingMigrations(queryable: Queryable, options: Pick<MigrateOptions, 'schema' | 'directories'>): Promise<string[]> {
  assertSafeIdentifier(options.schema);
  const shipped = migrationFileNames(options.directories);
  const recorded = await queryable
    .query<{ name: string }>(`SELECT name FROM ${options.schema}.schema_migrations`)
    .then((result) => new Set(result.rows.map((row) => row.name)))
    .catch((error: { code?: string }) => {
      if (error.code === '42P01' || error.code === '3F000') return new Set<string>(); // no table or no schema: nothing applied
      throw error;
    });
  return shipped.filter((name) => !recorded.has(name));
}

/** The names node-pg-migrate records (each file's name without its extension), ordered as it runs them. */
function migrationFileNames(directories: readonly string[]): string[] {
  const names = directories.flatMap((directory) => migrationFilesIn(directory).map((file) => path.parse(file).name));
  return names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

/** The migration files of one folder: its files and links, not its hidden ones. */
function migrationFilesIn(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && !entry.name.startsWith('.'))
    .map((entry) => entry.name);
}

export type MigrationsAtStart = 'apply' | 'verify';

/**
 * What a process that uses the schema does first (a service's boot, an operator CLI): `apply` the
 * pending migrations (migrate), or `verify` that a deployment's migration Job applied every one it
 * ships, failing with what to run when one is missing. Verifying is one read on a connection of
 * its own, nothing session-scoped, so it works through a transaction-mode pooler. Returns what
 * was applied (none when verifying).
 */
export async function prepareSchema(mode: MigrationsAtStart, options: MigrateOptions & { service: string }): Promise<string[]> {
  if (mode === 'apply') return migrate(options);
  const client = new Client({ connectionString: options.databaseUrl });
  await client.connect();
  const pending = await pendingMigrations(client, options).finally(() => client.end());
  if (pending.length > 0) {
    throw new Error(
      `MIGRATIONS_AT_BOOT=verify: the ${options.schema} schema lacks ${pending.length} migration(s) this build ships (${pending.join(', ')}); ` +
        `run the service's migration Job (node services/${options.service}/dist/migrate.js) first, or set MIGRATIONS_AT_BOOT=apply`,
    );
  }
  return [];
}

/** MIGRATIONS_AT_BOOT of an environment the process did not validate (the operator CLIs'): `verify` only when it says so. */
export function migrationsAtStartOf(env: Record<string, string | undefined>): MigrationsAtStart {
  return env.MIGRATIONS_AT_BOOT === 'verify' ? 'verify' : 'apply';
}

/** Characters a glob pattern gives a meaning to; node-pg-migrate reads several folders only as patterns. */
const globCharacters = /[*?[\]{}()!+@\\]/;

/**
 * One pattern per folder for node-pg-migrate, which sorts what they match by timestamp, then name.
 * A folder whose path holds a glob character would match other files, so it is refused; and a file
 * name found in two folders is refused too, since both copies would run under one recorded name.
 */
function migrationFilePatterns(directories: readonly string[]): string[] {
  if (directories.length === 0) throw new Error('migrate needs at least one migrations folder');
  const folderOf = new Map<string, string>();
  for (const directory of directories) {
    if (globCharacters.test(directory)) throw new Error(`Migrations folder ${directory} has a glob character in its path`);
    for (const file of migrationFilesIn(directory)) {
      const earlier = folderOf.get(file);
      if (earlier !== undefined) throw new Error(`Migration ${file} is in both ${earlier} and ${directory}`);
      folderOf.set(file, directory);
    }
  }
  return directories.map((directory) => path.join(directory, '*'));
}

/** Creates a database if it does not exist (used by npm start and by tests for their own databases). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  await withMaintenanceConnection(databaseUrl, async (admin, name) => {
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount !== 0) return;
    await admin.query(`CREATE DATABASE ${name}`).catch((error: { code?: string }) => {
      if (error.code !== '42P04') throw error; // created concurrently by another process
    });
  });
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  await withMaintenanceConnection(databaseUrl, async (admin, name) => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** Runs work on the server's `postgres` database, with the name of the database the URL points at. */
async function withMaintenanceConnection(databaseUrl: string, work: (admin: Client, name: string) => Promise<void>): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  assertSafeIdentifier(name);
  url.pathname = '/postgres';
  const admin = new Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await work(admin, name);
  } finally {
    await admin.end();
  }
}

/**
 * node-pg-migrate takes 100 to 150 ms to load, and only a boot's migration run needs it: the
 * operator CLIs and the other tools import @pwa/db for its pools, so it is loaded when a run starts.
 */
function loadMigrationRunner(): typeof NodePgMigrate.runner {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node-pg-migrate') as typeof NodePgMigrate).runner;
}
