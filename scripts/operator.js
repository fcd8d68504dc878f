#!/usr/bin/env node
// npm run operator -- <command> [args]: the operator CLI of the service that owns the command (auth
// for partners and signing keys, wallet for users, balances, limits and the ledger, quotes for
// fees; dead letters go to the broker-only CLI of libs/runtime, parked outbox rows (outbox-parked) to
// its PostgreSQL-only one; see lib/operator-cli.js), with the
// settings npm start uses (DATABASE_URL and ENVIRONMENT recorded in .local/sandbox.json,
// AUTH_KEY_ENCRYPTION_KEY and WEBHOOK_SECRET_SEALING_KEY from .local/secrets.json, AMQP_URL as npm
// start reads it, AUTH_URL of the local auth service), so it works against the local stack with no extra variables. Variables set in
// the environment win.
'use strict';
const { endProcess } = require('./lib/end-process');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { readSettings, SettingsError } = require('./lib/settings');
const { readJsonFile } = require('./lib/local-files');
const { cliEntryFor, cliEntryOf, commandOwners, standaloneClis } = require('./lib/operator-cli');

function environmentFor(settings) {
  const recorded = readJsonFile(settings.files.sandbox) ?? {};
  const secrets = readJsonFile(settings.files.secrets) ?? {};
  const env = { ...process.env };
  if (!env.DATABASE_URL) env.DATABASE_URL = recorded.databaseUrl || settings.databaseUrl;
  if (!env.ENVIRONMENT) env.ENVIRONMENT = recorded.environment || settings.environment;
  if (!env.AMQP_URL) env.AMQP_URL = settings.amqpUrl;
  // fund-partner asks auth whether the partner id exists (the wallet never reads auth's schema).
  if (!env.AUTH_URL) env.AUTH_URL = settings.services.find((service) => service.name === 'auth').url;
  for (const name of ['AUTH_KEY_ENCRYPTION_KEY', 'WEBHOOK_SECRET_SEALING_KEY']) {
    if (!env[name] && secrets[name]) env[name] = secrets[name];
  }
  // provision-database-roles provisions as the administrator npm start uses.
  if (!env.ADMIN_DATABASE_URL) env.ADMIN_DATABASE_URL = env.DATABASE_URL;
  if (!env.LOG_LEVEL) env.LOG_LEVEL = 'warn';
  return env;
}

function main() {
  let settings;
  try {
    settings = readSettings();
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    process.stderr.write(`Configuration error: ${error.message}\n`);
    endProcess(2);
  }
  const command = process.argv[2];
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    printUsage(settings);
    return;
  }
  const cliEntry = command === 'outbox-parked' ? outboxParkedEntry(settings) : cliEntryFor(command);
  if (!fs.existsSync(cliEntry)) {
    process.stderr.write(
      `The operator CLI is not built (${path.relative(settings.repoRoot, cliEntry)} is missing).\n` +
        'Build it first: npm run build   (npm start also builds)\n',
    );
    endProcess(1);
  }
  const child = spawn(process.execPath, [cliEntry, ...process.argv.slice(2)], { env: environmentFor(settings), stdio: 'inherit' });
  // The CLI owns the terminal; Ctrl-C reaches it directly, so this process only waits for it.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => undefined);
  child.once('error', (error) => {
    process.stderr.write(`could not run the operator CLI: ${error.message}\n`);
    endProcess(1);
  });
  child.once('exit', (code, signal) => endProcess(code ?? 128 + (os.constants.signals[signal] ?? 0)));
}

/** The parked-outbox CLI of libs/runtime (PostgreSQL only, any service's outbox: --service <name>). */
function outboxParkedEntry(settings) {
  return path.join(settings.repoRoot, 'libs', 'runtime', 'dist', 'outbox-parked', 'main.js');
}

/** Each service's own usage text, so the command list never drifts from the CLIs. */
function printUsage(settings) {
  const { spawnSync } = require('node:child_process');
  const clis = [
    ...['auth', ...Object.keys(commandOwners)].map((service) => [service, cliEntryOf(service)]),
    ...Object.entries(standaloneClis).map(([name, cli]) => [name, cli.entry]),
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
}

main();
