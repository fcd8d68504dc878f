// The operator CLIs: auth (partners, signing keys), wallet (users, balances, limits, ledger),
// quotes (fees) and the dead-letter CLI of libs/runtime (RabbitMQ only, no service's data).
// Commands are routed to the CLI that owns them; runOperatorCli runs one as a child process and
// reads its JSON.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { repoRoot } = require('./settings');

const cliEntryOf = (service) => path.join(repoRoot, 'services', service, 'dist', 'cli', 'main.js');
const cliEntry = cliEntryOf('auth');

/** Which service's CLI owns each command (see docs/internal-contracts.md, "Operator CLI routing"). */
const commandOwners = {
  wallet: ['create-user', 'update-user', 'show-user', 'credit-wallet', 'fund-partner', 'show-balances', 'show-limits', 'set-limit', 'check-ledger', 'seed-sandbox'],
  quotes: ['show-fees', 'set-fee'],
};

/** CLIs that belong to no service: their entry and commands. */
const standaloneClis = {
  'dead-letters': {
    entry: path.join(repoRoot, 'libs', 'runtime', 'dist', 'dead-letters', 'main.js'),
    commands: ['list-dead-letters', 'replay-dead-letters'],
  },
  'database-roles': {
    entry: path.join(repoRoot, 'libs', 'runtime', 'dist', 'database-roles', 'main.js'),
    commands: ['provision-database-roles'],
  },
  'database-backup': {
    entry: path.join(repoRoot, 'libs', 'runtime', 'dist', 'database-backup', 'main.js'),
    commands: ['backup-database', 'restore-database'],
  },
};

/** The CLI entry for a command; partner and signing-key commands (and unknown ones, for the usage text) go to auth. */
function cliEntryFor(command) {
  for (const cli of Object.values(standaloneClis)) {
    if (cli.commands.includes(command)) return cli.entry;
  }
  for (const [service, commands] of Object.entries(commandOwners)) {
    if (commands.includes(command)) return cliEntryOf(service);
  }
  return cliEntry;
}
const cliTimeoutMs = 60_000;

function cliIsBuilt() {
  return fs.existsSync(cliEntry);
}

/** The last line of stdout that parses as a JSON object or array (log lines may precede it). */
function lastJson(stdout) {
  const lines = stdout.split('\n').map((line) => line.trim()).filter(Boolean);
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const line = lines[index];
    if (!line.startsWith('{') && !line.startsWith('[')) continue;
    try {
      return JSON.parse(line);
    } catch {
      // not this line
    }
  }
  // The CLI may pretty-print: try the whole output.
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** Runs the CLI with args (adds --json) and resolves { exitCode, json, stdout, stderr }. */
function runOperatorCli(args, env) {
  const entry = cliEntryFor(args[0]);
  if (!fs.existsSync(entry)) return Promise.reject(new Error(`${path.relative(repoRoot, entry)} is missing; run npm run build`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args, '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), cliTimeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, json: lastJson(stdout), stdout, stderr });
    });
  });
}

/** Like runOperatorCli, but rejects with the CLI's own words when it fails. */
async function runOperatorCliOrThrow(args, env) {
  const result = await runOperatorCli(args, env);
  if (result.exitCode !== 0 || result.json === undefined) {
    const detail = (result.json && (result.json.message || result.json.error)) || result.stderr.trim() || result.stdout.trim();
    throw new Error(`operator CLI "${args[0]}" failed (exit ${result.exitCode}): ${String(detail).slice(0, 1000)}`);
  }
  return result.json;
}

module.exports = { cliEntry, cliEntryFor, cliEntryOf, commandOwners, standaloneClis, cliIsBuilt, runOperatorCli, runOperatorCliOrThrow };
