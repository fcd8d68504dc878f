import { createPool, migrationsAtStartOf, prepareSchema } from '@pwa/db';
// The runner alone, not the runtime barrel (the service host, express, the bus): every CLI call starts faster.
import { runOperatorCli } from '@pwa/runtime/operator-cli';
import { readAuthStoreConfig } from '../config';
import { authMigrationDirectories, authSchema } from '../service-paths';
import { runOperatorCommand, operatorUsage, OperatorUsageError, type OperatorContext } from './operator-commands';

/** The auth operator CLI (partners, secrets, signing keys); the shared runner handles --json, usage and exit codes. */
runOperatorCli<OperatorContext>({
  usage: operatorUsage,
  stringOptions: ['name', 'permissions', 'status', 'rate-limit', 'webhook-url', 'overlap-hours', 'from-key-env'],
  isUsageError: (error) => error instanceof OperatorUsageError,
  open: async () => {
    const config = readAuthStoreConfig(process.env);
    await prepareSchema(migrationsAtStartOf(process.env), { service: 'auth', databaseUrl: config.DATABASE_URL, schema: authSchema, directories: authMigrationDirectories });
    const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'operator-cli', schema: authSchema, maxConnections: 2 });
    return { context: { pool, config, environmentVariable: (name: string) => process.env[name] }, close: () => pool.end() };
  },
  run: (context, command, args, options) => runOperatorCommand(context, command, args, options),
  // Set-up and break-glass only (decision 0073): the back-office makes these changes audited.
  directChanges: {
    onboard: 'onboard',
    'set-status': 'request-status',
    'set-permissions': 'request-permissions',
    'set-rate-limit': 'request-rate-limit',
    'set-webhook-url': 'set-webhook-url',
    'rotate-secret': 'rotate-secret',
    'rotate-webhook-secret': 'rotate-webhook-secret',
  },
});
