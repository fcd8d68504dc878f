// npm run operator -- <command> [args]: the operator CLI of the service that owns the command (auth
// for partners and signing keys, wallet for users, balances, limits and the ledger, quotes for
// fees; dead letters, database roles and backups go to the CLIs of libs/runtime, parked outbox rows
// (outbox-parked) to its PostgreSQL-only one; see lib/operator-cli.ts), with the settings npm start
// uses (DATABASE_URL and ENVIRONMENT recorded in .local/sandbox.json, AUTH_KEY_ENCRYPTION_KEY and
// WEBHOOK_SECRET_SEALING_KEY and BACKOFFICE_SEALING_KEY from .local/secrets.json, AMQP_URL as npm start reads it, AUTH_URL of
// the local auth service, BACKOFFICE_PUBLIC_URL of the local back-office for bootstrap-admin), so it
// works against the local stack with no extra variables. Variables
// set in the environment win. `backoffice <command>` is no database CLI: it calls the back-office
// API as a person with BACKOFFICE_TOKEN (backoffice-commands.ts). Started by scripts/operator.js.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backofficeUsage, runBackofficeCli } from './backoffice-commands';
import { endProcess } from './lib/end-process';
import { readJsonFile } from './lib/local-files';
import { cliEntryFor, cliEntryOf, commandOwners, standaloneClis, type OperatorService } from './lib/operator-cli';
import { SettingsError, readSettings, serviceSettings, type Settings } from './lib/settings';

function environmentFor(settings: Settings): NodeJS.ProcessEnv {
  const recorded = readJsonFile(settings.files.sandbox) ?? {};
  const secrets = readJsonFile(settings.files.secrets) ?? {};
  const env = { ...process.env };
  const recordedText = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined);
  if (!env.DATABASE_URL) env.DATABASE_URL = recordedText(recorded.databaseUrl) ?? settings.databaseUrl;
  if (!env.ENVIRONMENT) env.ENVIRONMENT = recordedText(recorded.environment) ?? settings.environment;
  if (!env.AMQP_URL) env.AMQP_URL = settings.amqpUrl;
  // fund-partner asks auth whether the partner id exists (the wallet never reads auth's schema).
  if (!env.AUTH_URL) env.AUTH_URL = serviceSettings(settings, 'auth').url;
  // reseal-totp-secrets re-seals operators' TOTP secrets under the back-office's key (BACKOFFICE_SEALING_KEY_PREVIOUS from the environment only).
  for (const name of ['AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY', 'BACKOFFICE_SEALING_KEY']) {
    const stored = recordedText(secrets[name]);
    if (!env[name] && stored) env[name] = stored;
  }
  // bootstrap-admin: the back-office's set-up link points at the console's address as npm start printed it.
  if (!env.BACKOFFICE_PUBLIC_URL) env.BACKOFFICE_PUBLIC_URL = recordedText(recorded.backofficeUrl) ?? settings.backoffice.publicUrl;
  // invite-admin: the dashboard's invitation link points at the dashboard's address as npm start printed it.
  if (!env.DASHBOARD_PUBLIC_URL) env.DASHBOARD_PUBLIC_URL = recordedText(recorded.dashboardUrl) ?? settings.dashboard.publicUrl;
  // provision-database-roles provisions as the administrator npm start uses.
  if (!env.ADMIN_DATABASE_URL) env.ADMIN_DATABASE_URL = env.DATABASE_URL;
  if (!env.LOG_LEVEL) env.LOG_LEVEL = 'warn';
  return env;
}

function readSettingsOrEnd(): Settings {
  try {
    return readSettings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    return endProcess(2);
  }
}

function main(): void {
  const settings = readSettingsOrEnd();
  const command = process.argv[2];
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    printUsage(settings);
    return;
  }
  // backoffice: a client of the back-office API with the person's token, in this process (no database settings).
  if (command === 'backoffice') {
    runBackofficeCli(process.argv.slice(3), settings).then(endProcess, (error: unknown) => {
      process.stderr.write(`backoffice: ${error instanceof Error ? error.message : String(error)}\n`);
      endProcess(1);
    });
    return;
  }
  const cliEntry = command === 'outbox-parked' ? outboxParkedEntry(settings) : cliEntryFor(command);
  if (!fs.existsSync(cliEntry)) {
    process.stderr.write(
      `The operator CLI is not built (${path.relative(settings.repoRoot, cliEntry)} is missing).\n` + 'Build it first: npm run build   (npm start also builds)\n',
    );
    endProcess(1);
  }
  const child = spawn(process.execPath, [cliEntry, ...process.argv.slice(2)], { env: environmentFor(settings), stdio: 'inherit' });
  // The CLI owns the terminal; Ctrl-C reaches it directly, so this process only waits for it.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);
  child.once('error', (error) => {
    process.stderr.write(`could not run the operator CLI: ${error.message}\n`);
    endProcess(1);
  });
  child.once('exit', (code, signal) => endProcess(code ?? 128 + (signal ? os.constants.signals[signal] : 0)));
}

/** The parked-outbox CLI of libs/runtime (PostgreSQL only, any service's outbox: --service <name>). */
function outboxParkedEntry(settings: Settings): string {
  return path.join(settings.repoRoot, 'libs', 'runtime', 'dist', 'outbox-parked', 'main.js');
}

/** Each service's own usage text, so the command list never drifts from the CLIs. */
function printUsage(settings: Settings): void {
  const services: OperatorService[] = ['auth', ...(Object.keys(commandOwners) as OperatorService[])];
  const clis: [string, string][] = [
    ...services.map((service): [string, string] => [service, cliEntryOf(service)]),
    ...Object.entries(standaloneClis).map(([name, cli]): [string, string] => [name, cli.entry]),
    ['outbox-parked', outboxParkedEntry(settings)],
  ];
  for (const [service, entry] of clis) {
    process.stdout.write(`\n== ${service} ==\n`);
    if (!fs.existsSync(entry)) {
      process.stdout.write(`(not built: ${path.relative(settings.repoRoot, entry)}; run npm run build)\n`);
      continue;
    }
    const result = spawnSync(process.execPath, [entry, '--help'], { env: environmentFor(settings), encoding: 'utf8' });
    process.stdout.write(result.stdout);
  }
  process.stdout.write(`\n== backoffice (the back-office API as you, with a personal token) ==\n${backofficeUsage}`);
}

main();
