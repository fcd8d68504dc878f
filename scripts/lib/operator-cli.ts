// The operator CLIs: auth (partners, signing keys), wallet (users, balances, limits, ledger),
// quotes (fees), the back-office's set-up (bootstrap-admin) and the CLIs of libs/runtime (dead letters, database roles, backups: no service's
// data). Commands are routed to the CLI that owns them; runOperatorCli runs one as a child process
// and reads its JSON.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { asRecord, parseJson } from './http';
import { repoRoot } from './repo-root';

export type OperatorService = 'auth' | 'wallet' | 'quotes';

export const cliEntryOf = (service: OperatorService): string => path.join(repoRoot, 'services', service, 'dist', 'cli', 'main.js');
export const cliEntry = cliEntryOf('auth');

/** Which service's CLI owns each command (see docs/internal-contracts.md, "Operator CLI routing"). */
export const commandOwners: Readonly<Record<'wallet' | 'quotes', readonly string[]>> = {
  wallet: ['create-user', 'update-user', 'show-user', 'credit-wallet', 'fund-partner', 'show-balances', 'show-limits', 'set-limit', 'check-ledger', 'reverse-disbursement', 'seed-sandbox'],
  quotes: ['show-fees', 'set-fee'],
};

/** CLIs that belong to no service: their entry and commands. */
export const standaloneClis: Readonly<Record<string, { entry: string; commands: readonly string[] }>> = {
  'dead-letters': {
    entry: path.join(repoRoot, 'libs', 'runtime', 'dist', 'dead-letters', 'main.js'),
    commands: ['list-dead-letters', 'replay-dead-letters'],
  },
  'database-roles': {
    entry: path.join(repoRoot, 'libs', 'runtime', 'dist', 'database-roles', 'main.js'),
    commands: ['provision-database-roles'],
  },
  // The back-office's set-up CLI: the first admin's bootstrap (a set-up link, never a default password).
  'backoffice-setup': {
    entry: path.join(repoRoot, 'services', 'backoffice', 'dist', 'cli', 'main.js'),
    commands: ['bootstrap-admin', 'reseal-totp-secrets', 'verify-audit-log'],
  },
  // The partner dashboard's set-up CLI: a partner's first admin's invitation (a one-time link).
  'dashboard-setup': {
    entry: path.join(repoRoot, 'services', 'dashboard', 'dist', 'cli', 'main.js'),
    commands: ['invite-admin', 'verify-partner-audit-log'],
  },
  'database-backup': {
    entry: path.join(repoRoot, 'libs', 'runtime', 'dist', 'database-backup', 'main.js'),
    commands: ['backup-database', 'restore-database'],
  },
};

/** The CLI entry for a command; partner and signing-key commands (and unknown ones, for the usage text) go to auth. */
export function cliEntryFor(command: string | undefined): string {
  if (command === undefined) return cliEntry;
  for (const cli of Object.values(standaloneClis)) {
    if (cli.commands.includes(command)) return cli.entry;
  }
  for (const [service, commands] of Object.entries(commandOwners) as [OperatorService, readonly string[]][]) {
    if (commands.includes(command)) return cliEntryOf(service);
  }
  return cliEntry;
}

const cliTimeoutMs = 60_000;

export function cliIsBuilt(): boolean {
  return fs.existsSync(cliEntry);
}

/** The last line of stdout that parses as a JSON object or array (log lines may precede it), else the whole of it. */
function lastJson(stdout: string): unknown {
  const lines = stdout
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  for (const line of lines.reverse()) {
    if (!line.startsWith('{') && !line.startsWith('[')) continue;
    const value = parseJson(line);
    if (value !== undefined) return value;
  }
  // The CLI may pretty-print: try the whole output.
  return parseJson(stdout);
}

export interface OperatorResult {
  exitCode: number | null;
  /** The JSON it printed last (an object or an array), or undefined. */
  json: unknown;
  stdout: string;
  stderr: string;
}

/** Runs the CLI that owns args[0] with args (adds --json); resolves its exit code, JSON object and output. */
export function runOperatorCli(args: readonly string[], env: NodeJS.ProcessEnv, { cwd, timeoutMs = cliTimeoutMs }: { cwd?: string; timeoutMs?: number } = {}): Promise<OperatorResult> {
  const entry = cliEntryFor(args[0]);
  if (!fs.existsSync(entry)) return Promise.reject(new Error(`${path.relative(repoRoot, entry)} is missing; run npm run build`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args, '--json'], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
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

/** Like runOperatorCli, but resolves the JSON object and rejects with the CLI's own words when it fails. */
export async function runOperatorCliOrThrow(args: readonly string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  const result = await runOperatorCli(args, env);
  const json = asRecord(result.json);
  if (result.exitCode !== 0 || json === undefined) {
    const said = json?.message ?? json?.error;
    const detail = typeof said === 'string' && said ? said : result.stderr.trim() || result.stdout.trim();
    throw new Error(`operator CLI "${args[0] ?? ''}" failed (exit ${String(result.exitCode)}): ${detail.slice(0, 1000)}`);
  }
  return json;
}
