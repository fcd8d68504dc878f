import { parseArgs } from 'node:util';
import { createPool, migrate } from '@pwa/db';
import { readAuthStoreConfig } from '../config';
import { authMigrationsDirectory, authSchema } from '../service-paths';
import { runOperatorCommand, operatorUsage, OperatorUsageError } from './operator-commands';

/**
 * The operator CLI: `npm run operator -- <command> [args] [--json]`. With --json every command
 * prints exactly one JSON object on stdout (errors too, as {"error": "..."}) for scripts.
 */
async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      name: { type: 'string' },
      permissions: { type: 'string' },
      status: { type: 'string' },
      'rate-limit': { type: 'string' },
      'webhook-url': { type: 'string' },
      'overlap-hours': { type: 'string' },
    },
  });
  const [command, ...args] = positionals;
  if (values.help || command === undefined || command === 'help') {
    process.stdout.write(operatorUsage);
    return command === undefined && !values.help ? 2 : 0;
  }
  const config = readAuthStoreConfig(process.env);
  await migrate({ databaseUrl: config.DATABASE_URL, schema: authSchema, directory: authMigrationsDirectory });
  const pool = createPool({ connectionString: config.DATABASE_URL, applicationName: 'operator-cli', schema: authSchema, maxConnections: 2 });
  try {
    const result = await runOperatorCommand({ pool, config }, command, args, {
      name: values.name,
      permissions: values.permissions,
      status: values.status,
      rateLimit: values['rate-limit'],
      webhookUrl: values['webhook-url'],
      overlapHours: values['overlap-hours'],
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
