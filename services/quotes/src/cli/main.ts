import { parseArgs } from 'node:util';
import { createPool, migrate } from '@pwa/db';
import { readQuotesStoreConfig } from '../config';
import { quotesMigrationsDirectory, quotesSchema } from '../service-paths';
import { OperatorUsageError, operatorUsage, runOperatorCommand } from './operator-commands';

/**
 * The quotes operator CLI (fees): `npm run operator -- <command> [options] [--json]`. With --json
 * every command prints exactly one JSON object on stdout (errors too, as {"error": "..."}).
 */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      type: { type: 'string' },
      currency: { type: 'string' },
      tiers: { type: 'string' },
      min: { type: 'string' },
      max: { type: 'string' },
    },
  });
  const [command] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(operatorUsage);
    return command === undefined && !values.help ? 2 : 0;
  }
  const config = readQuotesStoreConfig();
  await migrate({ databaseUrl: config.DATABASE_URL, schema: quotesSchema, directory: quotesMigrationsDirectory });
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'quotes-operator-cli', schema: quotesSchema, maxConnections: 2 });
  try {
    const result = await runOperatorCommand(pool, command, {
      type: values.type,
      currency: values.currency,
      tiers: values.tiers,
      min: values.min,
      max: values.max,
    });
    process.stdout.write(values.json ? `${JSON.stringify(result.data)}\n` : `${result.text}\n`);
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (values.json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n${error instanceof OperatorUsageError ? operatorUsage : ''}`);
    return error instanceof OperatorUsageError ? 2 : 1;
  } finally {
    await pool.end();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
