import { createPool, migrationsAtStartOf, prepareSchema } from '@pwa/db';
import { createInternalJsonClient } from '@pwa/http';
// The runner alone, not the runtime barrel: every CLI call starts faster.
import { runOperatorCli } from '@pwa/runtime/operator-cli';
import { createLogger } from '@pwa/logging';
import { readDashboardSetupConfig } from '../config';
import { createInvitationMailer } from '../upstream/invitation-mailer';
import { partnerExistsAt } from '../upstream/partner-api';
import { dashboardMigrationDirectories, dashboardSchema } from '../service-paths';
import { OperatorUsageError, runSetupCommand, setupUsage, type SetupContext } from './setup-commands';

/** The dashboard's set-up CLI (a partner's first admin's invitation, the audit chain's verification); the shared runner handles --json, usage and exit codes. */
runOperatorCli<SetupContext>({
  usage: setupUsage,
  stringOptions: ['partner-id', 'email', 'name'],
  isUsageError: (error) => error instanceof OperatorUsageError,
  open: async () => {
    const config = readDashboardSetupConfig(process.env);
    await prepareSchema(migrationsAtStartOf(process.env), { service: 'dashboard', databaseUrl: config.DATABASE_URL, schema: dashboardSchema, directories: dashboardMigrationDirectories });
    const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'dashboard-setup-cli', schema: dashboardSchema, maxConnections: 2 });
    const auth = createInternalJsonClient({ baseUrl: config.AUTH_URL });
    const partnerExists = (partnerId: string): Promise<boolean> => partnerExistsAt(auth, partnerId, 5_000);
    const mailer = config.DASHBOARD_SMTP_URL === undefined ? undefined : createInvitationMailer({ url: config.DASHBOARD_SMTP_URL, from: config.DASHBOARD_SMTP_FROM, timeoutMs: config.DASHBOARD_SMTP_TIMEOUT_MS }, createLogger({ service: 'dashboard-setup-cli', level: config.LOG_LEVEL }));
    return {
      context: { pool, publicUrl: config.DASHBOARD_PUBLIC_URL, partnerExists, ...(mailer === undefined ? {} : { mailer }) },
      close: async () => {
        auth.close();
        mailer?.close();
        await pool.end();
      },
    };
  },
  run: (context, command, args, options) => runSetupCommand(context, command, args, options),
});
