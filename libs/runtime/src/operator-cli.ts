import os from 'node:os';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { breakGlassOption, directChangeGate, directChangesUsage } from './direct-change-gate';

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
  /**
   * The commands that change what the back-office changes audited, each with its back-office
   * equivalent: set-up and break-glass only (direct-change-gate.ts; in production they need
   * --break-glass "<reason>"). Every CLI accepts --break-glass.
   */
  directChanges?: Readonly<Record<string, string | null>>;
}

function osUser(): string {
  try {
    return os.userInfo().username;
  } catch {
    return 'unknown user';
  }
}

/** The gate for one command line, with the process's ENVIRONMENT and user. */
function gateOf<Context>(cli: OperatorCli<Context>, command: string, options: Record<string, string | undefined>): ReturnType<typeof directChangeGate> {
  return directChangeGate({ command, auditedWays: cli.directChanges ?? {}, breakGlassReason: options.breakGlass, environment: process.env.ENVIRONMENT, osUser: osUser() });
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
  const usage = `${cli.usage}${directChangesUsage(cli.directChanges)}`;
  const fail = (message: string, withUsage: boolean): void => {
    if (json) process.stdout.write(`${JSON.stringify({ error: message })}\n`);
    else process.stderr.write(`error: ${message}\n${withUsage ? usage : ''}`);
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
    process.stdout.write(usage);
    return command === undefined && !parsed.help ? 2 : 0;
  }
  if (command === batchCommand) {
    if (args.length > 0) {
      fail(`${batchCommand} takes no arguments: it reads one JSON array of arguments per line on stdin`, true);
      return 2;
    }
    return runBatch(cli, process.stdin, (line) => process.stdout.write(`${line}\n`));
  }
  const gate = gateOf(cli, command, parsed.options);
  if (gate.kind === 'refused') {
    fail(gate.message, false);
    return 2;
  }
  if (gate.notice !== undefined) process.stderr.write(`${gate.notice}\n`);
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

/**
 * `<cli> batch`: many commands on one opened context (one migration check, one pool) instead of one
 * process each, for scripts that seed or inspect many rows (the end-to-end harness, bulk set-up).
 * Each stdin line is a JSON array of the arguments a command line would have (`["create-user",
 * "--phone", "0770123456", ...]`); each gets one stdout line, in order: `{"exitCode":0,"output":{...}}`
 * where output is what --json prints for that command (`{"error": "..."}` when it failed) and the
 * exit code is the one the command would exit with. A malformed line answers exit code 2 and the
 * batch goes on. The batch exits 0 at the end of stdin, or 1 when its context cannot be opened.
 */
export const batchCommand = 'batch';

export interface BatchAnswer {
  exitCode: number;
  output: unknown;
}

async function runBatch<Context>(cli: OperatorCli<Context>, input: NodeJS.ReadableStream, writeLine: (line: string) => void): Promise<number> {
  let opened: Awaited<ReturnType<OperatorCli<Context>['open']>>;
  try {
    opened = await cli.open();
  } catch (error) {
    writeLine(JSON.stringify({ exitCode: 1, output: { error: messageOf(error) } } satisfies BatchAnswer));
    return 1;
  }
  try {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) {
      if (line.trim() === '') continue;
      writeLine(JSON.stringify(await runBatchLine(cli, opened.context, line)));
    }
    return 0;
  } finally {
    await opened.close();
  }
}

async function runBatchLine<Context>(cli: OperatorCli<Context>, context: Context, line: string): Promise<BatchAnswer> {
  const argv = batchArguments(line);
  if (argv === undefined) return { exitCode: 2, output: { error: 'each batch line must be a JSON array of strings, the arguments of one command' } };
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv, cli.stringOptions, cli.booleanOptions ?? []);
  } catch (error) {
    return { exitCode: 2, output: { error: messageOf(error) } };
  }
  const [command, ...args] = parsed.positionals;
  if (command === undefined || command === batchCommand || command === 'help' || parsed.help) {
    return { exitCode: 2, output: { error: 'each batch line names one command (not help or batch)' } };
  }
  // A batch is set-up (the sandbox's seeding, the tests): the production rule holds line by line, without a notice per line.
  const gate = gateOf(cli, command, parsed.options);
  if (gate.kind === 'refused') return { exitCode: 2, output: { error: gate.message } };
  try {
    const result = await cli.run(context, command, args, parsed.options);
    return { exitCode: result.exitCode ?? 0, output: result.data };
  } catch (error) {
    return { exitCode: cli.isUsageError(error) ? 2 : 1, output: { error: messageOf(error) } };
  }
}

function batchArguments(line: string): string[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function parseCommandLine(argv: string[], stringOptions: readonly string[], booleanOptions: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      [breakGlassOption]: { type: 'string' },
      ...Object.fromEntries(stringOptions.map((name) => [name, { type: 'string' as const }])),
      ...Object.fromEntries(booleanOptions.map((name) => [name, { type: 'boolean' as const }])),
    },
  });
  const options: Record<string, string | undefined> = {};
  for (const name of [...stringOptions, breakGlassOption]) {
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
