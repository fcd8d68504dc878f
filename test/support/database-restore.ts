import { execFile } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'pg';
import { databaseFingerprint, type DatabaseFingerprint } from './database-fingerprint';
import { repoRoot } from './stack';

/**
 * What the backup and recovery tests share: the operators' CLI as a runbook runs it, every ledger
 * balance of a database, and a fingerprint taken once the stack has come to rest.
 */
export const serviceSchemas = ['auth', 'wallet', 'quotes', 'collections', 'disbursements', 'webhooks', 'backoffice', 'dashboard'];

/** `npm run operator -- <args> --json` with this environment (and PATH alone besides). */
export function runOperator(args: string[], env: Record<string, string>): Promise<{ code: number; json: Record<string, unknown>; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [path.join(repoRoot, 'scripts', 'operator.js'), ...args, '--json'],
      { cwd: repoRoot, env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        try {
          resolve({ code: error ? Number(error.code ?? 1) : 0, json: JSON.parse(stdout) as Record<string, unknown>, stderr });
        } catch {
          reject(new Error(`operator ${args.join(' ')} printed no JSON: ${stdout}${stderr}`));
        }
      },
    );
  });
}

/** Every ledger account's balance (minor units), keyed by account, kind and currency. */
export async function allLedgerBalances(databaseUrl: string): Promise<Record<string, string>> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  try {
    const rows = await pool.query<{ account_id: string; kind: string; currency: string; balance_minor: string }>(
      'SELECT account_id::text, kind, currency, balance_minor::text FROM wallet.ledger_accounts ORDER BY account_id',
    );
    return Object.fromEntries(rows.rows.map((row) => [`${row.account_id} ${row.kind} ${row.currency}`, row.balance_minor]));
  } finally {
    await pool.end();
  }
}

/** Waits until the relays and consumers are done: two fingerprints a second apart agree. */
export async function quietFingerprint(databaseUrl: string): Promise<DatabaseFingerprint> {
  let previous = await databaseFingerprint(databaseUrl, serviceSchemas);
  for (let attempt = 0; attempt < 30; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const current = await databaseFingerprint(databaseUrl, serviceSchemas);
    if (JSON.stringify(current) === JSON.stringify(previous)) return current;
    previous = current;
  }
  throw new Error('the stack did not come to rest within 30 s');
}
