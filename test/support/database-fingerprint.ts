import { Pool } from 'pg';

/**
 * A digest of every row of every table in the given schemas, one entry per table. Two equal
 * fingerprints mean no row was inserted, updated or deleted in between, which is how a test proves
 * that a refused request left the database as it was. Outbox rows are taken by id only, because
 * relays mark them published in the background.
 */
export type DatabaseFingerprint = Record<string, string>;

export async function databaseFingerprint(databaseUrl: string, schemas: readonly string[]): Promise<DatabaseFingerprint> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const tables = await pool.query<{ schema: string; table: string }>(
      `SELECT table_schema AS schema, table_name AS table FROM information_schema.tables
        WHERE table_schema = ANY($1) AND table_type = 'BASE TABLE' ORDER BY 1, 2`,
      [schemas],
    );
    const fingerprint: DatabaseFingerprint = {};
    for (const { schema, table } of tables.rows) {
      const rowText = table === 'outbox' ? 't.id::text' : 't::text';
      const digest = await pool.query<{ rows: string; digest: string }>(
        `SELECT count(*)::text AS rows, md5(coalesce(string_agg(${rowText}, '|' ORDER BY ${rowText}), '')) AS digest
           FROM ${quoteIdentifier(schema)}.${quoteIdentifier(table)} t`,
      );
      const row = digest.rows[0];
      fingerprint[`${schema}.${table}`] = `${row?.rows ?? '?'} rows ${row?.digest ?? ''}`;
    }
    return fingerprint;
  } finally {
    await pool.end();
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
