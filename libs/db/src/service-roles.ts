import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { Client, escapeLiteral } from 'pg';
import { assertSafeIdentifier, serviceSearchPath, serviceStatementTimeoutMs } from './pool';

/**
 * Least privilege in PostgreSQL: every service that owns a schema gets two roles of its own.
 *
 * - `<prefix>_<service>_owner` owns the schema and everything in it. Migrations run as this role,
 *   so only it can change the schema's shape. It has no right on any other service's schema.
 * - `<prefix>_<service>_runtime` is what the running service connects as: USAGE on its schema and
 *   SELECT, INSERT, UPDATE, DELETE on its tables (and USAGE, SELECT, UPDATE on its sequences),
 *   given now and, through default privileges, on every table a later migration creates. No DDL
 *   (it owns nothing and has no CREATE), no TRUNCATE, nothing in another schema.
 *   Its sessions in this database start with the service's search path and statement timeout.
 *
 * Provisioning is run by a database administrator (a role with CREATEROLE and ownership of the
 * database, or a superuser) once per database, and again after adding a service; it is idempotent.
 * A schema that exists already (an install from before the roles) is adopted: the schema and
 * everything in it are given to the owner role.
 */
export interface ServiceSchema {
  /** The service's name, which names its roles (auth, wallet, ...). */
  service: string;
  /** The schema the service owns. */
  schema: string;
  /** Role names to use instead of `<prefix>_<service>_owner` / `_runtime` (the users of given URLs, say). */
  roles?: ServiceRoleNames;
}

export interface ServiceRoleNames {
  owner: string;
  runtime: string;
}

export interface ProvisionServiceRolesOptions {
  /** A URL of the target database as an administrator. */
  adminUrl: string;
  services: readonly ServiceSchema[];
  /** Prefix of every role name (roles are cluster-wide: two installs on one cluster use two prefixes). Default `pwa`. */
  rolePrefix?: string;
  /**
   * Passwords per role name. A role given one gets it (sent as a SCRAM-SHA-256 verifier, so the
   * password itself never reaches the server's statement log); a role not given one keeps what it
   * has (none for a new role: for trust or certificate authentication).
   */
  passwords?: Readonly<Record<string, string>>;
}

export interface ProvisionedService extends ServiceRoleNames {
  service: string;
  schema: string;
  /** Tables, sequences, views and functions whose owner changed (an adopted schema). */
  adopted: number;
}

export const defaultRolePrefix = 'pwa';

export function serviceRoleNames(service: string, rolePrefix = defaultRolePrefix): ServiceRoleNames {
  const names = { owner: `${rolePrefix}_${service}_owner`, runtime: `${rolePrefix}_${service}_runtime` };
  assertSafeIdentifier(names.owner);
  assertSafeIdentifier(names.runtime);
  return names;
}

/** The same URL with another user and password (none when password is undefined). */
export function databaseUrlForRole(databaseUrl: string, role: string, password?: string): string {
  const url = new URL(databaseUrl);
  url.username = encodeURIComponent(role);
  url.password = password === undefined ? '' : encodeURIComponent(password);
  return url.toString();
}

export async function provisionServiceRoles(options: ProvisionServiceRolesOptions): Promise<ProvisionedService[]> {
  const rolePrefix = options.rolePrefix ?? defaultRolePrefix;
  const client = new Client({ connectionString: options.adminUrl });
  await client.connect();
  try {
    const database = (await client.query<{ name: string }>('SELECT current_database() AS name')).rows[0]?.name ?? '';
    assertSafeIdentifier(database);
    const provisioned: ProvisionedService[] = [];
    for (const { service, schema, roles: givenRoles } of options.services) {
      assertSafeIdentifier(schema);
      const roles = givenRoles ?? serviceRoleNames(service, rolePrefix);
      assertSafeIdentifier(roles.owner);
      assertSafeIdentifier(roles.runtime);
      if (roles.owner === roles.runtime) throw new Error(`${service}: the owner and runtime roles must be two roles`);
      for (const role of [roles.owner, roles.runtime]) await ensureLoginRole(client, role, options.passwords?.[role]);
      await client.query('BEGIN');
      try {
        // One provisioning of this database at a time (several test stacks may provision at once).
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`pwa-provision-roles:${schema}`]);
        await client.query(`GRANT CONNECT ON DATABASE ${database} TO ${roles.owner}, ${roles.runtime}`);
        const adopted = await ensureSchemaOwnedBy(client, schema, roles.owner);
        await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${roles.runtime}`);
        await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${roles.runtime}`);
        await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${roles.runtime}`);
        await client.query(
          `ALTER DEFAULT PRIVILEGES FOR ROLE ${roles.owner} IN SCHEMA ${schema} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${roles.runtime}`,
        );
        await client.query(
          `ALTER DEFAULT PRIVILEGES FOR ROLE ${roles.owner} IN SCHEMA ${schema} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${roles.runtime}`,
        );
        // What the pools send as startup parameters, also on the role in this database: a pooler
        // that drops startup parameters (PgBouncer's ignore_startup_parameters) still gives every
        // session the service's search path and statement timeout.
        await client.query(`ALTER ROLE ${roles.runtime} IN DATABASE ${database} SET search_path = ${serviceSearchPath(schema)}`);
        await client.query(`ALTER ROLE ${roles.runtime} IN DATABASE ${database} SET statement_timeout = ${serviceStatementTimeoutMs}`);
        await client.query('COMMIT');
        provisioned.push({ service, schema, ...roles, adopted });
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    return provisioned;
  } finally {
    await client.end();
  }
}

/** Creates a LOGIN role that inherits nothing and can create nothing, or leaves an existing one. */
async function ensureLoginRole(client: Client, role: string, password: string | undefined): Promise<void> {
  const existing = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (existing.rowCount === 0) {
    await client
      .query(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION`)
      .catch((error: { code?: string }) => {
        // Created at the same moment by another provisioning (roles are cluster-wide).
        if (error.code !== '42710' && error.code !== '23505') throw error;
      });
  }
  if (password !== undefined) await client.query(`ALTER ROLE ${role} PASSWORD ${escapeLiteral(scramSha256Verifier(password))}`);
}

/**
 * Creates the schema for its owner role, or gives an existing one (and everything in it) to that
 * role. Returns how many objects changed owner.
 */
async function ensureSchemaOwnedBy(client: Client, schema: string, owner: string): Promise<number> {
  const found = await client.query<{ owner: string }>(
    'SELECT pg_get_userbyid(nspowner) AS owner FROM pg_namespace WHERE nspname = $1',
    [schema],
  );
  const current = found.rows[0];
  if (current === undefined) {
    await client.query(`CREATE SCHEMA ${schema} AUTHORIZATION ${owner}`);
    return 0;
  }
  if (current.owner !== owner) await client.query(`ALTER SCHEMA ${schema} OWNER TO ${owner}`);
  const objects = await client.query<{ statement: string }>(
    `SELECT format('ALTER %s %I.%I OWNER TO %I',
                   CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                   n.nspname, c.relname, $2::text) AS statement
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'S') AND pg_get_userbyid(c.relowner) <> $2
        -- a sequence owned by a column moves with its table
        AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype IN ('a', 'i')))
     UNION ALL
     SELECT format('ALTER %s %s OWNER TO %I', CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END, p.oid::regprocedure, $2::text)
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = $1 AND pg_get_userbyid(p.proowner) <> $2
     UNION ALL
     SELECT format('ALTER TYPE %I.%I OWNER TO %I', n.nspname, t.typname, $2::text)
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype IN ('e', 'd', 'c') AND t.typrelid = 0 AND pg_get_userbyid(t.typowner) <> $2`,
    [schema, owner],
  );
  for (const { statement } of objects.rows) await client.query(statement);
  return objects.rowCount ?? 0;
}

/**
 * A SCRAM-SHA-256 verifier of a password (RFC 5802, RFC 7677), the form PostgreSQL stores: given
 * to ALTER ROLE ... PASSWORD, the server stores it as it is, and the password itself is never sent.
 */
export function scramSha256Verifier(password: string, options: { salt?: Buffer; iterations?: number } = {}): string {
  const salt = options.salt ?? randomBytes(16);
  const iterations = options.iterations ?? 4096;
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}
