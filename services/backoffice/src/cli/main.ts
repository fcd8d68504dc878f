import { createPool, migrationsAtStartOf, prepareSchema } from '@pwa/db';
// The runner alone, not the runtime barrel: every CLI call starts faster.
import { runOperatorCli } from '@pwa/runtime/operator-cli';
import { readBackofficeSetupConfig, totpSealingKeysOf } from '../config';
import { backofficeMigrationDirectories, backofficeSchema } from '../service-paths';
import { OperatorUsageError, runSetupCommand, setupUsage, type SetupContext } from './setup-commands';

/** The back-office's set-up CLI (the first admin's bootstrap, the sealing key's rotation, the audit chain's verification); the shared runner handles --json, usage and exit codes. */
runOperatorCli<SetupContext>({
  usage: setupUsage,
  stringOptions: ['email', 'name', 'batch-size', 'anchor-sequence', 'anchor-hash'],
  isUsageError: (error) => error instanceof OperatorUsageError,
  open: async () => {
    const config = readBackofficeSetupConfig(process.env);
    await prepareSchema(migrationsAtStartOf(process.env), { service: 'backoffice', databaseUrl: config.DATABASE_URL, schema: backofficeSchema, directories: backofficeMigrationDirectories });
    const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'backoffice-setup-cli', schema: backofficeSchema, maxConnections: 2 });
    const { BACKOFFICE_SEALING_KEY: current, BACKOFFICE_SEALING_KEY_PREVIOUS: previous } = config;
    const sealingKeys = current === undefined ? undefined : totpSealingKeysOf({ BACKOFFICE_SEALING_KEY: current, BACKOFFICE_SEALING_KEY_PREVIOUS: previous });
    return { context: { pool, consoleBaseUrl: config.BACKOFFICE_PUBLIC_URL, sealingKeys }, close: () => pool.end() };
  },
  run: (context, command, args, options) => runSetupCommand(context, command, args, options),
});
