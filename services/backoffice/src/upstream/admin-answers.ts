import type { JsonValue } from '@pwa/audit';
import { adminChangeAnswerSchema, adminChangeRefusalCodes, readContractAnswer } from '@pwa/contracts';
import type { PkcCode } from '@pwa/errors';
import type { z } from '@pwa/config';
import type { AdminExecution } from '../use-cases/execute-approved-request';

/**
 * The owners' refusals that end a request for good: a retry would be refused the same way (an
 * admin refusal, or a body the owner cannot read, which no resend of the same request would change).
 */
export const finalAdminRefusals: ReadonlySet<PkcCode> = new Set<PkcCode>([...Object.values(adminChangeRefusalCodes), 'PKC_2008']);

/**
 * An owner's answer to an admin change as an execution: the 200 under its contract, a final
 * refusal, or a throw for anything else (no answer, a 5xx, an answer outside the contract), which
 * leaves the request approved for the next sweep.
 */
export function executionOfAnswer<S extends z.ZodType>(
  owner: string,
  answer: { status: number; body: unknown },
  schema: S,
  refusals: ReadonlySet<PkcCode>,
  done: (data: z.output<S>) => Extract<AdminExecution, { kind: 'done' }>,
): AdminExecution {
  const read = readContractAnswer(answer, schema, refusals);
  if (read.kind === 'answer') return done(read.data);
  if (read.kind === 'refusal') return { kind: 'refused', code: read.code, message: read.message ?? read.code };
  throw new Error(`${owner}'s admin answer is outside its contract: ${read.problem}`);
}

/** A settings change's answer (auth, quotes, wallet tier limits): replayed or not, the values before and after. */
export function settingsChangeExecution(owner: string, answer: { status: number; body: unknown }): AdminExecution {
  return executionOfAnswer(owner, answer, adminChangeAnswerSchema, finalAdminRefusals, (data) => ({
    kind: 'done',
    result: { replayed: data.replayed },
    before: (data.before ?? null) as JsonValue,
    after: data.after as JsonValue,
  }));
}
