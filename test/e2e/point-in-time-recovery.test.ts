import { randomBytes } from 'node:crypto';
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { databaseUrlForRole, serviceRoleNames } from '@pwa/db';
import { allLedgerBalances, quietFingerprint, runOperator } from '../support/database-restore';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { accessTokenFor, onboardPartner } from '../support/partners';
import { directoryForTheServer, runPostgresProgram, startPrivatePostgresServer, type PrivatePostgresServer } from '../support/private-postgres';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, fundPartner } from '../support/wallet-users';

/**
 * The production backup of docs/operations.md ("Base backups with WAL archiving") done once, end to
 * end: a PostgreSQL that archives every WAL segment, a stack moving money on it, a base backup
 * (pg_basebackup), more money moved (in the WAL only), the moment to return to, then a mistake
 * (more money moved). Recovering the base backup with the archived WAL to that moment gives a
 * ledger with the balances of that moment to the minor unit, not those after the mistake, and the
 * wallet's ledger check passes on it.
 */
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function queryOne<Row extends Record<string, unknown>>(url: string, sql: string): Promise<Row> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const row = (await client.query<Row>(sql)).rows[0];
    if (row === undefined) throw new Error(`no row from ${sql}`);
    return row;
  } finally {
    await client.end();
  }
}

/** The same database on another server (the recovered one). */
function onServer(databaseUrl: string, server: PrivatePostgresServer): string {
  const url = new URL(databaseUrl);
  url.port = String(server.port);
  return url.toString();
}

describe('point-in-time recovery of the ledger', () => {
  const archive = directoryForTheServer('pwa-wal-archive-');
  const baseBackup = directoryForTheServer('pwa-base-backup-');
  let primary: PrivatePostgresServer | undefined;
  let recovered: PrivatePostgresServer | undefined;
  let stack: Stack | undefined;

  beforeAll(async () => {
    primary = await startPrivatePostgresServer({ settings: ['wal_level=replica', 'archive_mode=on', `archive_command=cp %p ${archive}/%f`] });
    stack = await startStack({ logLevel: 'warn', servers: { postgres: primary.url } });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await recovered?.dispose();
    await primary?.dispose();
    for (const directory of [archive, baseBackup]) rmSync(directory, { recursive: true, force: true });
  }, 60_000);

  test('when a base backup and the archived WAL are recovered to a moment, then the ledger is that moment’s to the minor unit and its check passes', async () => {
    if (!stack || !primary) throw new Error('the stack did not start');
    const server = primary;
    const partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    const token = await accessTokenFor(stack.client, partner);
    await fundPartner(stack, partner.partnerId, 'USD', '1000');
    const payees = await Promise.all([createWalletUser(stack), createWalletUser(stack)]);
    const payOut = async (payee: (typeof payees)[number], amount: number): Promise<void> => {
      const quote = await disbursementQuote(stack!.client, token, payee, amount);
      expect((await transfer(stack!.client, token, { quoteId: quote.quoteId, externalId: `pitr-${randomBytes(4).toString('hex')}` })).status).toBe(200);
    };
    await quietFingerprint(stack.databaseUrl);
    const atBaseBackup = await allLedgerBalances(stack.databaseUrl);

    // The base backup, taken while the stack runs.
    await runPostgresProgram('pg_basebackup', ['--dbname', server.url, '--pgdata', path.join(baseBackup, 'data'), '--wal-method=stream', '--checkpoint=fast']);

    // Money moved after it (in the WAL alone), then the moment to return to.
    await payOut(payees[0], 25);
    await quietFingerprint(stack.databaseUrl);
    const atTarget = await allLedgerBalances(stack.databaseUrl);
    expect(atTarget).not.toEqual(atBaseBackup);
    const { target } = await queryOne<{ target: string }>(server.url, 'SELECT now()::text AS target');
    await sleep(1_100);

    // The mistake to undo: more money moves.
    await payOut(payees[1], 30);
    await fundPartner(stack, partner.partnerId, 'USD', '500');
    await quietFingerprint(stack.databaseUrl);
    const afterMistake = await allLedgerBalances(stack.databaseUrl);
    expect(afterMistake).not.toEqual(atTarget);

    // Every WAL segment up to now archived.
    const { segment } = await queryOne<{ segment: string }>(server.url, 'SELECT pg_walfile_name(pg_switch_wal()) AS segment');
    const archived = async (): Promise<boolean> => (await queryOne<{ done: boolean }>(server.url, `SELECT coalesce(last_archived_wal >= '${segment}', false) AS done FROM pg_stat_archiver`)).done;
    for (let attempt = 0; attempt < 100 && !(await archived()); attempt += 1) await sleep(100);
    expect(await archived()).toBe(true);

    // Recovery, as the runbook does it: the base backup, recovery.signal, the archive and the target.
    recovered = await startPrivatePostgresServer({
      fromDataDirectory: {
        source: path.join(baseBackup, 'data'),
        prepare: (dataDirectory) => {
          writeFileSync(path.join(dataDirectory, 'recovery.signal'), '');
          appendFileSync(path.join(dataDirectory, 'postgresql.auto.conf'), `restore_command = 'cp ${archive}/%f %p'\nrecovery_target_time = '${target}'\nrecovery_target_action = 'promote'\n`);
        },
      },
    });
    const recoveredServer = recovered;
    const promoted = async (): Promise<boolean> => !(await queryOne<{ recovering: boolean }>(recoveredServer.url, 'SELECT pg_is_in_recovery() AS recovering')).recovering;
    for (let attempt = 0; attempt < 300 && !(await promoted()); attempt += 1) await sleep(100);
    expect(await promoted()).toBe(true);

    const recoveredDatabase = onServer(stack.databaseUrl, recoveredServer);
    expect(await allLedgerBalances(recoveredDatabase)).toEqual(atTarget);
    const ledger = await runOperator(['check-ledger'], { DATABASE_URL: databaseUrlForRole(recoveredDatabase, serviceRoleNames('wallet').runtime), ENVIRONMENT: stack.environment });
    expect(ledger).toMatchObject({ code: 0, json: { ok: true } });
  }, 240_000);
});
