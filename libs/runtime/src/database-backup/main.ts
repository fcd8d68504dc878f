import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Client } from 'pg';
import { provisionServiceRoles, type ProvisionedService } from '@pwa/db';
import { runOperatorCli } from '../operator-cli';
import { DatabaseRolesUsageError, databaseServices, planFromEnvironment, type Plan } from '../database-roles/plan';

/**
 * The logical backup of a small install (`npm run operator -- backup-database|restore-database`;
 * docs/operations.md, "Backup and restore"). Base backups with WAL archiving are the way for a
 * production ledger; this is the dump a small install, a staging copy or a drill uses.
 *
 * - backup-database --file F: pg_dump of the whole database (every service's schema) in the custom
 *   format, as ADMIN_DATABASE_URL.
 * - restore-database --file F: into an EMPTY database (it refuses one that holds any service's
 *   schema): pg_restore in one transaction without the dump's owners and grants, then the services'
 *   roles are provisioned as provision-database-roles does (the roles <SVC>_DATABASE_URL and
 *   <SVC>_MIGRATION_DATABASE_URL name, else pwa_<service>_owner / _runtime), which gives each
 *   schema back to its owner role and its rows to its runtime role. It reports, per service, the
 *   outbox events not yet published: the relays publish them when the services start, and
 *   consumers drop the ones they had processed (processed_events).
 *
 * The URL's password reaches pg_dump and pg_restore as PGPASSWORD, never on their command line.
 */
const usage = `Backup and restore (PostgreSQL, as ADMIN_DATABASE_URL):
  backup-database --file <path>
      pg_dump of every service's schema (custom format) to <path>.
  restore-database --file <path>
      Restores a dump made by backup-database into the EMPTY database of ADMIN_DATABASE_URL (create
      it first), in one transaction, then gives each service's schema to its roles (as
      provision-database-roles) and says how many outbox events each service will publish on start.
      Then run: npm run operator -- check-ledger (against the restored database).
Environment: ADMIN_DATABASE_URL; optionally <SVC>_DATABASE_URL and <SVC>_MIGRATION_DATABASE_URL to name the roles
Options: --json (one JSON object on stdout), --help
`;

class BackupUsageError extends Error {}

interface DumpTarget {
  /** The URL without its password (safe on a command line). */
  urlWithoutPassword: string;
  password: string;
}

function dumpTargetOf(adminUrl: string): DumpTarget {
  const url = new URL(adminUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return { urlWithoutPassword: url.toString(), password };
}

function runTool(tool: 'pg_dump' | 'pg_restore', args: string[], target: DumpTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, {
      env: { ...process.env, ...(target.password ? { PGPASSWORD: target.password } : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === 'ENOENT' ? `${tool} is not installed (Debian: apt-get install postgresql-client)` : error.message)),
    );
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (exit ${String(code)}): ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function serviceSchemasIn(client: Client): Promise<string[]> {
  const found = await client.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE nspname = ANY($1) ORDER BY nspname', [[...databaseServices]]);
  return found.rows.map((row) => row.nspname);
}

interface OutboxBacklog {
  schema: string;
  unpublished: number;
  parked: number;
}

async function outboxBacklog(client: Client, schemas: string[]): Promise<OutboxBacklog[]> {
  const backlog: OutboxBacklog[] = [];
  for (const schema of schemas) {
    const hasOutbox = await client.query("SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'outbox'", [schema]);
    if (hasOutbox.rowCount === 0) continue;
    const counts = await client.query<{ unpublished: string; parked: string }>(
      `SELECT count(*) FILTER (WHERE published_at IS NULL AND parked_at IS NULL)::text AS unpublished,
              count(*) FILTER (WHERE parked_at IS NOT NULL)::text AS parked
         FROM ${schema}.outbox`,
    );
    backlog.push({ schema, unpublished: Number(counts.rows[0]?.unpublished ?? 0), parked: Number(counts.rows[0]?.parked ?? 0) });
  }
  return backlog;
}

function fileOption(options: Record<string, string | undefined>): string {
  const file = options.file;
  if (file === undefined || file === '') throw new BackupUsageError('--file <path> is required');
  return file;
}

async function backupDatabase(plan: Plan, file: string) {
  const schemas = await withClient(plan.adminUrl, serviceSchemasIn);
  if (schemas.length === 0) throw new Error('the database holds no service schema: nothing to back up');
  const target = dumpTargetOf(plan.adminUrl);
  await runTool('pg_dump', ['--format=custom', '--no-password', `--file=${file}`, ...schemas.map((schema) => `--schema=${schema}`), `--dbname=${target.urlWithoutPassword}`], target);
  return { data: { file, schemas }, text: `backed up ${schemas.join(', ')} to ${file}` };
}

async function restoreDatabase(plan: Plan, file: string) {
  if (!existsSync(file)) throw new BackupUsageError(`no dump at ${file}`);
  const present = await withClient(plan.adminUrl, serviceSchemasIn);
  if (present.length > 0) {
    throw new Error(`the target database is not empty: it holds ${present.join(', ')}; restore into a new database (CREATE DATABASE) and point the services at it`);
  }
  const target = dumpTargetOf(plan.adminUrl);
  await runTool('pg_restore', ['--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', '--no-password', `--dbname=${target.urlWithoutPassword}`, file], target);
  const restored = await withClient(plan.adminUrl, serviceSchemasIn);
  const namedRoles = new Map(plan.services.map((service) => [service.schema, service]));
  const provisioned: ProvisionedService[] = await provisionServiceRoles({
    adminUrl: plan.adminUrl,
    services: restored.map((schema) => namedRoles.get(schema) ?? { service: schema, schema }),
    passwords: plan.passwords,
  });
  const backlog = await withClient(plan.adminUrl, (client) => outboxBacklog(client, restored));
  const lines = [
    `restored ${restored.join(', ')} from ${file}`,
    ...provisioned.map((service) => `  ${service.schema}: owned by ${service.owner}, rows for ${service.runtime}`),
    ...backlog.map((entry) => `  ${entry.schema}: ${entry.unpublished} outbox event(s) to publish when the service starts${entry.parked > 0 ? `, ${entry.parked} parked` : ''}`),
    'next: npm run operator -- check-ledger against this database, then start the services on it',
  ];
  return {
    data: { file, schemas: restored, roles: provisioned.map(({ schema, owner, runtime }) => ({ schema, owner, runtime })), outbox: backlog },
    text: lines.join('\n'),
  };
}

runOperatorCli<Plan>({
  usage,
  stringOptions: ['file'],
  isUsageError: (error) => error instanceof BackupUsageError || error instanceof DatabaseRolesUsageError,
  open: () => Promise.resolve({ context: planFromEnvironment(process.env, { servicesRequired: false }), close: () => Promise.resolve() }),
  run: async (plan, command, args, options) => {
    if (args.length > 0) throw new BackupUsageError(`unexpected argument ${args[0] ?? ''}`);
    switch (command) {
      case 'backup-database':
        return backupDatabase(plan, fileOption(options));
      case 'restore-database':
        return restoreDatabase(plan, fileOption(options));
      default:
        throw new BackupUsageError(`unknown command ${command}`);
    }
  },
});
