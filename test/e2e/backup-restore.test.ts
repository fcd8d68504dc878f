import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { databaseUrlForRole, dropDatabase, ensureDatabase, serviceRoleNames } from '@pwa/db';
import { actAsUser, createCollection, nextExternalId } from '../support/collection-flow';
import { databaseFingerprint } from '../support/database-fingerprint';
import { allLedgerBalances, quietFingerprint, runOperator, serviceSchemas } from '../support/database-restore';
import { disbursementQuote, transfer } from '../support/disbursement-helpers';
import { accessTokenFor, onboardPartner } from '../support/partners';
import { startStack, type Stack } from '../support/stack';
import { createWalletUser, creditWallet, fundPartner } from '../support/wallet-users';

/**
 * Backup and restore of the money ledger (issue 15): a stack moves money (funding, disbursements,
 * an approved collection), `npm run operator -- backup-database` dumps it, `restore-database` puts
 * the dump into an empty database, and the restored database holds the very same rows, its
 * balances are equal account by account, the wallet's ledger check passes on it, each service's
 * schema is back with its own roles, and a wallet service runs on it.
 */
const schemas = serviceSchemas;

describe('backup and restore of the ledger', () => {
  let stack: Stack;
  let workDirectory: string;
  let restoredUrl: string;

  beforeAll(async () => {
    stack = await startStack({ logLevel: 'warn' });
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'pwa-backup-'));
    const url = new URL(stack.databaseUrl);
    url.pathname = `/pwa_restored_${randomBytes(6).toString('hex')}`;
    restoredUrl = url.toString();
  });

  afterAll(async () => {
    await stack?.stop();
    if (restoredUrl) await dropDatabase(restoredUrl);
    if (workDirectory) rmSync(workDirectory, { recursive: true, force: true });
  });

  test('when a stack that moved money is dumped and restored into an empty database, then rows, balances and the ledger check agree, and each schema is back with its roles', async () => {
    const partner = await onboardPartner(stack, { rateLimitPerMinute: 100_000 });
    const token = await accessTokenFor(stack.client, partner);
    await fundPartner(stack, partner.partnerId, 'USD', '1000');
    const payees = await Promise.all([createWalletUser(stack), createWalletUser(stack)]);
    for (const [index, payee] of payees.entries()) {
      const quote = await disbursementQuote(stack.client, token, payee, 25 + index);
      const sent = await transfer(stack.client, token, { quoteId: quote.quoteId, externalId: `backup-${randomBytes(4).toString('hex')}` });
      expect(sent.status).toBe(200);
    }
    const payer = await createWalletUser(stack);
    await creditWallet(stack, payer, 'USD', '200');
    const referenceId = await createCollection(stack.client, token, { phone: payer.localPhone, amount: 40, currency: 'USD', externalId: nextExternalId() });
    expect((await actAsUser(stack.internalUrls.collections, referenceId, 'approve', { phone: payer.phone })).status).toBe(200);

    const before = await quietFingerprint(stack.databaseUrl);
    const file = path.join(workDirectory, 'partner-wallet.dump');
    const backup = await runOperator(['backup-database', '--file', file], { DATABASE_URL: stack.databaseUrl });
    expect(backup).toMatchObject({ code: 0, json: { file, schemas: [...schemas].sort() } });
    expect(await databaseFingerprint(stack.databaseUrl, schemas)).toEqual(before);

    await ensureDatabase(restoredUrl);
    const restore = await runOperator(['restore-database', '--file', file], { DATABASE_URL: restoredUrl });
    expect(restore.code).toBe(0);
    expect(restore.json).toMatchObject({
      schemas: [...schemas].sort(),
      roles: [...schemas].sort().map((schema) => ({ schema, ...serviceRoleNames(schema) })),
    });
    expect(await databaseFingerprint(restoredUrl, schemas)).toEqual(before);
    const balances = await allLedgerBalances(stack.databaseUrl);
    expect(Object.keys(balances).length).toBeGreaterThan(5);
    expect(await allLedgerBalances(restoredUrl)).toEqual(balances);

    // The ledger check, as the wallet's runtime role of the restored database.
    const restoredWallet = {
      runtime: databaseUrlForRole(restoredUrl, serviceRoleNames('wallet').runtime),
      owner: databaseUrlForRole(restoredUrl, serviceRoleNames('wallet').owner),
    };
    const ledger = await runOperator(['check-ledger'], { DATABASE_URL: restoredWallet.runtime, ENVIRONMENT: stack.environment });
    expect(ledger).toMatchObject({ code: 0, json: { ok: true } });

    // A wallet service starts on the restored database as its own roles and answers balances from it.
    const wallet = await stack.startExtraService('wallet', { DATABASE_URL: restoredWallet.runtime, MIGRATION_DATABASE_URL: restoredWallet.owner });
    try {
      const ready = await fetch(`${wallet.url}/readyz`);
      expect(ready.status).toBe(200);
    } finally {
      await wallet.stop();
    }
  });

  test('when the target database already holds a service schema, then restore-database refuses it and changes nothing', async () => {
    const file = path.join(workDirectory, 'refused.dump');
    expect((await runOperator(['backup-database', '--file', file], { DATABASE_URL: stack.databaseUrl })).code).toBe(0);
    const before = await databaseFingerprint(restoredUrl, schemas);
    const refused = await runOperator(['restore-database', '--file', file], { DATABASE_URL: restoredUrl });
    expect(refused.code).toBe(1);
    expect(String(refused.json.error)).toContain('the target database is not empty');
    expect(await databaseFingerprint(restoredUrl, schemas)).toEqual(before);
  });
});
