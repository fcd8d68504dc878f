import { z } from 'zod';
import { fields } from './fields';

/** The outbox relay's settings, in every service that publishes events. */
export const outboxConfigFields = {
  /** How often the relay looks for events to publish when the outbox is drained. */
  OUTBOX_POLL_INTERVAL_MS: fields.milliseconds(200),
  /** Failed publish attempts after which the relay parks an outbox row the broker refuses (or that is not a valid event), so the rows behind it go on (docs/operations.md, Parked outbox rows). */
  OUTBOX_PUBLISH_ATTEMPTS_MAX: z.coerce.number().int().min(1).max(1_000).default(5),
};

export type OutboxConfig = z.output<z.ZodObject<typeof outboxConfigFields>>;
