/** A variable renamed in this release: the deprecated name is still read, for one release, with a warning. */
export interface RenamedKey {
  deprecated: string;
  current: string;
}

/** The log line's shape; a pino logger is one. */
export interface WarningLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

type Environment = Record<string, string | undefined>;

/** The renamed keys whose deprecated name is set in the environment. */
export function renamedKeysIn(env: Environment, renamedKeys: readonly RenamedKey[]): RenamedKey[] {
  return renamedKeys.filter((key) => env[key.deprecated] !== undefined);
}

/**
 * The environment with each deprecated name's value under its current name. When both are set the
 * current name wins, so a deployment can set the new name before it removes the old one.
 */
export function withRenamedKeys(env: Environment, renamedKeys: readonly RenamedKey[]): Environment {
  const renamed: Environment = { ...env };
  for (const key of renamedKeysIn(env, renamedKeys)) renamed[key.current] ??= env[key.deprecated];
  return renamed;
}

/**
 * Logs one warning per deprecated name set in the environment, naming it and its replacement. The
 * configuration is parsed before the logger exists (it sets the level), so main.ts calls this
 * once the logger is made.
 */
export function warnOfRenamedKeys(logger: WarningLogger, env: Environment, renamedKeys: readonly RenamedKey[]): void {
  for (const key of renamedKeysIn(env, renamedKeys)) {
    const ignored = env[key.current] !== undefined ? `; ${key.current} is set too and wins` : '';
    logger.warn(
      { deprecatedKey: key.deprecated, replacementKey: key.current },
      `configuration key ${key.deprecated} is deprecated and read for one more release only: rename it ${key.current}${ignored}`,
    );
  }
}
