import { parseArgs } from 'node:util';

/** What an operator command answers: `data` for --json, `text` for people, and an optional exit code. */
export interface OperatorCommandResult {
  data: unknown;
  text: string;
  exitCode?: number;
}

/**
 * A command line the CLI cannot run (an unknown command, a missing or malformed argument): exit
 * code 2 with the usage text. Every operator CLI throws this one, and its isUsageError tests for it.
 */
export class OperatorUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorUsageError';
  }
}

export interface OperatorCli<Context> {
  usage: string;
  /** The command's string options, kebab-case as typed (`rate-limit`); they reach `run` camelCased (`rateLimit`). */
  stringOptions: readonly string[];
  /** Flags without a value (`--dry-run`); they reach `run` camelCased, as 'true' when given and undefined otherwise. */
  booleanOptions?: readonly string[];
  /** True for a mistake in how the command was called: exit code 2 and the usage text. */
  isUsageError: (error: unknown) => boolean;
  /** Opens what the commands need (migrated schema, pool); called only for a real command. */
  open: () => Promise<{ context: Context; close: () => Promise<void> }>;
  run: (context: Context, command: string, args: string[], options: Record<string, string | undefined>) => Promise<OperatorCommandResult>;
}

/**
 * The one runner of every service's operator CLI (`npm run operator -- <command> [args] [--json]`).
 * With --json every command prints exactly one JSON object on stdout, errors too, as
 * {"error": "..."}, so scripts can rely on it. Exit codes: 0 done, 1 refused or failed, 2 usage.
 */
export function runOperatorCli<Context>(cli: OperatorCli<Context>, argv: string[] = process.argv.slice(2)): void {
  operatorCliMain(cli, argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

async function operatorCliMain<Context>(cli: OperatorCli<Context>, argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const fail = (message: string, usage: boolean): void => {
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n${usage ? cli.usage : ''}`);
  };
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv, cli.stringOptions, cli.booleanOptions ?? []);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), true);
    return 2;
  }
  const [command, ...args] = parsed.positionals;
  if (parsed.help || command === undefined || command === 'help') {
    process.stdout.write(cli.usage);
    return command === undefined && !parsed.help ? 2 : 0;
  }
  let opened: Awaited<ReturnType<OperatorCli<Context>['open']>>;
  try {
    opened = await cli.open();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error), false);
    return 1;
  }
  const { context, close } = opened;
  try {
    const result = await cli.run(context, command, args, parsed.options);
    process.stdout.write(json ? `${JSON.stringify(result.data)}\n` : `${result.text}\n`);
    return result.exitCode ?? 0;
  } catch (error) {
    const usageError = cli.isUsageError(error);
    fail(error instanceof Error ? error.message : String(error), usageError);
    return usageError ? 2 : 1;
  } finally {
    await close();
  }
}

function parseCommandLine(argv: string[], stringOptions: readonly string[], booleanOptions: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      ...Object.fromEntries(stringOptions.map((name) => [name, { type: 'string' as const }])),
      ...Object.fromEntries(booleanOptions.map((name) => [name, { type: 'boolean' as const }])),
    },
  });
  const options: Record<string, string | undefined> = {};
  for (const name of stringOptions) {
    const value = (values as Record<string, unknown>)[name];
    options[camelCase(name)] = typeof value === 'string' ? value : undefined;
  }
  for (const name of booleanOptions) {
    options[camelCase(name)] = (values as Record<string, unknown>)[name] === true ? 'true' : undefined;
  }
  return { positionals, options, help: values.help === true };
}

function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}
