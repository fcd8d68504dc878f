import { readContractAnswer } from '@pwa/contracts';
import { PkcError, type PkcCode } from '@pwa/errors';
import type { z } from '@pwa/config';
import type { OwnerAnswer } from '../use-cases/partner-admin-actions';

/**
 * An owner's answer to a change one person asked for in the console: the 200 under its contract,
 * a refusal the caller knows, or 503 PKC_7003 for anything else (no answer, a 5xx, outside the
 * contract): the console never guesses an outcome.
 */
export async function ownerAnswerOf<S extends z.ZodType>(owner: string, call: Promise<{ status: number; body: unknown }>, schema: S, refusals: ReadonlySet<PkcCode>): Promise<OwnerAnswer<z.output<S>>> {
  const answer = await call.catch((error: unknown) => {
    throw new PkcError('PKC_7003', `${owner} did not answer (${error instanceof Error ? error.message : 'no answer'}); nothing is known to have changed: send the same request again`);
  });
  const read = readContractAnswer(answer, schema, refusals);
  if (read.kind === 'answer') return { kind: 'answer', data: read.data };
  if (read.kind === 'refusal') return { kind: 'refusal', code: read.code, message: read.message ?? read.code };
  throw new PkcError('PKC_7003', `${owner}'s answer is outside its contract (${read.problem}); send the same request again`);
}
