import { createPool, migrationsAtStartOf, prepareSchema } from '@pwa/db';
// The runner alone, not the runtime barrel (the service host, express, the bus): every CLI call starts faster.
import { runOperatorCli } from '@pwa/runtime/operator-cli';
import { readWalletStoreConfig } from '../config';
import { walletMigrationDirectories, walletSchema } from '../service-paths';
import { authPartnerLookup, readOperatorAuthUrl } from './auth-partner-lookup';
import { runOperatorCommand, operatorUsage, OperatorUsageError, type OperatorContext } from './operator-commands';

/**
 * The wallet's operator CLI (users, balances, limits, ledger, reversals); the shared runner handles --json,
 * usage and exit codes: 0 done, 1 refused or failed (check-ledger: an invariant broken), 2 usage.
 */
runOperatorCli<OperatorContext>({
  usage: operatorUsage,
  stringOptions: [
    'phone', 'name', 'tier', 'kyc', 'status', 'currencies', 'freeze', 'unfreeze', 'add-currency', 'close-wallet', 'reopen-wallet', 'reference', 'transfer-id',
    'partner', 'type', 'currency', 'per-transaction', 'daily', 'weekly', 'monthly', 'yearly', 'per-hour-count', 'per-day-count',
    'reference-id', 'transaction-id', 'reason', 'operator',
  ],
  isUsageError: (error) => error instanceof OperatorUsageError,
  open: async () => {
    const config = readWalletStoreConfig(process.env);
    const partners = authPartnerLookup(readOperatorAuthUrl(process.env));
    await prepareSchema(migrationsAtStartOf(process.env), { service: 'wallet', databaseUrl: config.DATABASE_URL, schema: walletSchema, directories: walletMigrationDirectories });
    const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'wallet-operator-cli', schema: walletSchema, maxConnections: 2 });
    return { context: { pool, config, partners }, close: () => pool.end() };
  },
  run: (context, command, args, options) => runOperatorCommand(context, command, args, options),
  // Set-up and break-glass only (decision 0073): the back-office makes the first three with four eyes; wallet users have no back-office page yet.
  directChanges: { 'fund-partner': 'request-funding', 'set-limit': 'request-tier-limit', 'reverse-disbursement': 'request-reversal', 'create-user': null, 'update-user': null },
});
