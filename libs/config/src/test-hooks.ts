import { z } from 'zod';

/**
 * Settings that exist only for tests (a relay that starts late, a posting held on purpose). They
 * live outside a service's production schema: loadConfig reads them only when the configuration's
 * ENVIRONMENT is sandbox. In production every hook takes its default, and a switch set to anything
 * else stops the boot, so a test setting left in a deployment is found at once.
 */
export interface TestHooks<S extends z.ZodObject> {
  /** Every variable has a default, which leaves the hook off. */
  schema: S;
  /** The variables that turn a hook on (the others only shape a hook that is on). */
  switches: readonly (keyof S['shape'] & string)[];
}

/** Hooks from their variables and the names of those that turn a hook on. */
export function defineTestHooks<Shape extends z.ZodRawShape>(shape: Shape, switches: readonly (keyof Shape & string)[]): TestHooks<z.ZodObject<Shape>> {
  return { schema: z.object(shape), switches };
}

/** The crash-safety tests' hook: the outbox relay starts this long after boot (0, the default, at once). */
export const outboxRelayTestHooks = defineTestHooks({ OUTBOX_RELAY_START_DELAY_MS: z.coerce.number().int().min(0).max(3_600_000).default(0) }, ['OUTBOX_RELAY_START_DELAY_MS']);
