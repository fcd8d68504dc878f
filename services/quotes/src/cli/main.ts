import { createPool, migrationsAtStartOf, prepareSchema, type Pool } from '@pwa/db';
// The runner alone, not the runtime barrel (the service host, express, the bus): every CLI call starts faster.
import { runOperatorCli } from '@pwa/runtime/operator-cli';
import { readQuotesStoreConfig } from '../config';
import { quotesMigrationDirectories, quotesSchema } from '../service-paths';
import { OperatorUsageError, operatorUsage, runOperatorCommand } from './operator-commands';

/** The quotes operator CLI (fees); the shared runner handles --json, usage and exit codes. */
runOperatorCli<Pool>({
  usage: operatorUsage,
  stringOptions: ['type', 'currency', 'tiers', 'min', 'max'],
  isUsageError: (error) => error instanceof OperatorUsageError,
  open: async () => {
    const config = readQuotesStoreConfig();
    await prepareSchema(migrationsAtStartOf(process.env), { service: 'quotes', databaseUrl: config.DATABASE_URL, schema: quotesSchema, directories: quotesMigrationDirectories });
    const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'quotes-operator-cli', schema: quotesSchema, maxConnections: 2 });
    return { context: pool, close: () => pool.end() };
  },
  run: (pool, command, _args, options) => runOperatorCommand(pool, command, options),
  // Set-up and break-glass only (decision 0073): the back-office makes this change with four eyes.
  directChanges: { 'set-fee': 'request-fee-schedule' },
});
