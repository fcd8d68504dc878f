import { listParkedOutboxRows, replayParkedOutboxRows, type ParkedOutboxRow } from '@pwa/bus';
import { fields, loadConfig, z } from '@pwa/config';
import { createPool, type Pool } from '@pwa/db';
import { uuidPattern } from '@pwa/contracts';
import { OperatorUsageError, runOperatorCli } from '../operator-cli';

/**
 * The parked-outbox operator CLI (`npm run operator -- outbox-parked list|replay --service <name>`).
 * It belongs to no service: it reads and updates the outbox table of the named service's schema
 * with DATABASE_URL, and the running relay of that service does the publishing. Exit codes as every
 * operator CLI: 0 done, 1 failed, 2 usage.
 */
const services = ['auth', 'collections', 'disbursements', 'quotes', 'wallet', 'webhooks'] as const;

const usage = `Parked outbox rows (PostgreSQL, DATABASE_URL as the services use it):
  outbox-parked list --service <name> [--limit N]
      The rows the service's outbox relay parked after OUTBOX_PUBLISH_ATTEMPTS_MAX failed attempts,
      oldest first (default limit 100, at most 1000): id, event type, created, parked, attempts, last error.
  outbox-parked replay --service <name> [--id <event id>]
      Hands the row (or, without --id, every parked row of the service) back to the relay: it is
      published at the relay's next poll, and parked again after as many attempts if its cause remains.
  <name>: ${services.join(', ')}
Options: --json (one JSON object on stdout), --help
`;

const configSchema = z.object({ DATABASE_URL: fields.databaseUrl });

interface Context {
  databaseUrl: string;
}

runOperatorCli<Context>({
  usage,
  stringOptions: ['service', 'limit', 'id'],
  isUsageError: (error) => error instanceof OperatorUsageError,
  open: () => {
    const config = loadConfig(configSchema, process.env);
    return Promise.resolve({ context: { databaseUrl: config.DATABASE_URL }, close: () => Promise.resolve() });
  },
  run: async (context, command, args, options) => {
    if (command !== 'outbox-parked') throw new OperatorUsageError(`unknown command ${command}`);
    const [action, ...rest] = args;
    if (rest.length > 0) throw new OperatorUsageError(`unexpected argument ${rest[0] ?? ''}`);
    const service = serviceOf(options.service);
    const pool = createPool({ connectionString: context.databaseUrl, applicationName: 'outbox-parked-operator-cli', schema: service, maxConnections: 2 });
    try {
      return await runAction(pool, service, action, options);
    } finally {
      await pool.end();
    }
  },
});

async function runAction(pool: Pool, service: string, action: string | undefined, options: Record<string, string | undefined>) {
  switch (action) {
    case 'list': {
      const listing = await listParkedOutboxRows(pool, parseLimit(options.limit));
      return { data: { service, ...listing }, text: listingText(service, listing) };
    }
    case 'replay': {
      const id = options.id;
      if (id !== undefined && !uuidPattern.test(id)) throw new OperatorUsageError('--id must be an event id (a UUID)');
      const replayed = await replayParkedOutboxRows(pool, id === undefined ? {} : { id });
      if (id !== undefined && replayed.length === 0) {
        return { data: { service, replayed, error: `no parked row ${id} in ${service}` }, text: `error: no parked row ${id} in ${service}'s outbox`, exitCode: 1 };
      }
      return { data: { service, replayed }, text: `handed ${replayed.length} parked row(s) of ${service} back to its outbox relay${replayed.length > 0 ? `: ${replayed.join(', ')}` : ''}` };
    }
    case undefined:
      throw new OperatorUsageError('outbox-parked needs list or replay');
    default:
      throw new OperatorUsageError(`unknown action ${action}`);
  }
}

function serviceOf(value: string | undefined): string {
  if (value === undefined || value === '') throw new OperatorUsageError('--service <name> is required');
  if (!(services as readonly string[]).includes(value)) throw new OperatorUsageError(`--service must be one of ${services.join(', ')}`);
  return value;
}

function parseLimit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000) throw new OperatorUsageError('--limit must be an integer from 1 to 1000');
  return limit;
}

function listingText(service: string, listing: { total: number; rows: ParkedOutboxRow[] }): string {
  const lines = [`${service}: ${listing.total} parked outbox row(s)${listing.rows.length < listing.total ? ` (first ${listing.rows.length} shown)` : ''}`];
  for (const row of listing.rows) {
    lines.push(`  ${row.id} ${row.routingKey} created ${row.createdAt} parked ${row.parkedAt} after ${row.attempts} attempt(s): ${row.lastError ?? '(no error recorded)'}`);
  }
  return lines.join('\n');
}
