import type { z } from 'zod';
import { withRenamedKeys, type RenamedKey } from './renamed-keys';
import type { TestHooks } from './test-hooks';

/** Raised at boot when configuration is invalid. Names the keys, never echoes their values. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Environment = Record<string, string | undefined>;

export interface LoadConfigOptions<H extends z.ZodObject> {
  /** Deprecated names still read for their current ones (warnOfRenamedKeys logs them). */
  renamedKeys?: readonly RenamedKey[];
  /** Test-only settings, read in the sandbox only (see TestHooks). */
  testHooks?: TestHooks<H>;
}

/** The hooks' variables in the result, when there are hooks. */
type HooksOutput<H extends z.ZodObject> = [H] extends [never] ? unknown : z.output<H>;

/**
 * Parses the environment once against a zod schema and freezes the result. Fails fast: a service
 * must not start with a configuration it cannot use. Values are never echoed, since some are secrets.
 */
export function loadConfig<S extends z.ZodType, H extends z.ZodObject = never>(
  schema: S,
  env: Environment,
  options: LoadConfigOptions<H> = {},
): Readonly<z.output<S> & HooksOutput<H>> {
  const source = options.renamedKeys ? withRenamedKeys(env, options.renamedKeys) : env;
  const config: unknown = parseOrThrow(schema, source);
  if (!options.testHooks) return deepFreeze(config as z.output<S> & HooksOutput<H>);
  const hooks = readTestHooks(options.testHooks, source, isSandbox(config));
  return deepFreeze(Object.assign({}, config, hooks) as z.output<S> & HooksOutput<H>);
}

function parseOrThrow<S extends z.ZodType>(schema: S, env: Environment): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  return parsed.data;
}

function isSandbox(config: unknown): boolean {
  return (config as { ENVIRONMENT?: unknown }).ENVIRONMENT === 'sandbox';
}

/** The sandbox gets the hooks as set; production gets their defaults, and refuses a switch set to anything else. */
function readTestHooks<H extends z.ZodObject>(testHooks: TestHooks<H>, env: Environment, sandbox: boolean): Record<string, unknown> {
  const hooks: Record<string, unknown> = parseOrThrow(testHooks.schema, env);
  if (sandbox) return hooks;
  const defaults: Record<string, unknown> = parseOrThrow(testHooks.schema, {});
  const problems = testHooks.switches
    .filter((key) => hooks[key] !== defaults[key])
    .map((key) => `${key}: a test hook, read in the sandbox only; in production it must be unset or ${String(defaults[key])}`);
  if (problems.length > 0) throw new ConfigError(problems);
  return defaults;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as Record<string, unknown>)) deepFreeze(child);
  }
  return value;
}
