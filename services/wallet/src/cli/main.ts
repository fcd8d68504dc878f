import { parseArgs } from 'node:util';
import { createPool, migrate } from '@pwa/db';
import { readWalletStoreConfig } from '../config';
import { walletMigrationsDirectory, walletSchema } from '../service-paths';
import { runOperatorCommand, operatorUsage, OperatorUsageError } from './operator-commands';

/**
 * The wallet's operator CLI: `npm run operator -- <command> [args] [--json]`. With --json every
 * command prints exactly one JSON object on stdout (errors too, as {"error": "..."}) for scripts.
 * Exit codes: 0 done, 1 refused or failed (check-ledger: an invariant broken), 2 usage error.
 */
async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    // A bad flag: answer in the form the caller asked for, if we can tell.
    const message = error instanceof Error ? error.message : String(error);
    if (argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n${operatorUsage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [command, ...args] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(operatorUsage);
    return command === undefined && !values.help ? 2 : 0;
  }
  const config = readWalletStoreConfig(process.env);
  await migrate({ databaseUrl: config.DATABASE_URL, schema: walletSchema, directory: walletMigrationsDirectory });
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'wallet-operator-cli', schema: walletSchema, maxConnections: 2 });
  try {
    const result = await runOperatorCommand({ pool, config }, command, args, {
      phone: values.phone,
      name: values.name,
      tier: values.tier,
      kyc: values.kyc,
      status: values.status,
      currencies: values.currencies,
      freeze: values.freeze,
      unfreeze: values.unfreeze,
      addCurrency: values['add-currency'],
      reference: values.reference,
      transferId: values['transfer-id'],
      partner: values.partner,
      type: values.type,
      currency: values.currency,
      perTransaction: values['per-transaction'],
      daily: values.daily,
      weekly: values.weekly,
      monthly: values.monthly,
      yearly: values.yearly,
      perHourCount: values['per-hour-count'],
      perDayCount: values['per-day-count'],
    });
    process.stdout.write(values.json ? `${JSON.stringify(result.data)}\n` : `${result.text}\n`);
    return result.exitCode ?? 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (values.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n${error instanceof OperatorUsageError ? operatorUsage : ''}`);
    return error instanceof OperatorUsageError ? 2 : 1;
  } finally {
    await pool.end();
  }
}

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      phone: { type: 'string' },
      name: { type: 'string' },
      tier: { type: 'string' },
      kyc: { type: 'string' },
      status: { type: 'string' },
      currencies: { type: 'string' },
      freeze: { type: 'string' },
      unfreeze: { type: 'string' },
      'add-currency': { type: 'string' },
      reference: { type: 'string' },
      'transfer-id': { type: 'string' },
      partner: { type: 'string' },
      type: { type: 'string' },
      currency: { type: 'string' },
      'per-transaction': { type: 'string' },
      daily: { type: 'string' },
      weekly: { type: 'string' },
      monthly: { type: 'string' },
      yearly: { type: 'string' },
      'per-hour-count': { type: 'string' },
      'per-day-count': { type: 'string' },
    },
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (process.argv.includes('--json')) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  },
);
