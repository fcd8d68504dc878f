import { appendAuditEntry, type AuditActor } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import { open, seal } from '@pwa/sealing';
import { replaceSealedTotpSecret, sealedTotpSecretOf, sealedTotpSecretsAfter, type SealedTotpSecretRow } from '../store/totp-reseal-store';
import { totpSecretBinding } from '../use-cases/people-dependencies';

/** The keys of a rotation: secrets open with the current one, or are moved to it from the previous one. */
export interface TotpSealingKeys {
  current: Buffer;
  /** Absent: the run only checks that every secret opens with the current key. */
  previous: Buffer | undefined;
}

export interface TotpResealOutcome {
  /** Operators with a TOTP factor, all of them read. */
  operators: number;
  /** Secrets that opened with the previous key only and are now sealed with the current one. */
  resealed: number;
  /** Secrets that opened with the current key already (a repeated or interrupted run, or enrolled since the roll). */
  alreadyUnderCurrentKey: number;
}

/** Operator ids named in a refusal at most; the count says how many there were in all. */
export const unopenableOperatorIdsShownMax = 20;
export const totpResealBatchSizeDefault = 100;
export const totpResealBatchSizeMax = 1_000;

/**
 * Some secrets open with neither key: nothing was re-sealed. Names the operators, never a secret;
 * their secrets are lost (those operators enrol again) unless the right previous key is found.
 */
export class UnopenableTotpSecretsError extends Error {
  constructor(
    readonly unopenableCount: number,
    readonly operatorIds: readonly string[],
  ) {
    const more = unopenableCount > operatorIds.length ? ` and ${unopenableCount - operatorIds.length} more` : '';
    super(
      `${unopenableCount} TOTP secret(s) open with neither BACKOFFICE_SEALING_KEY nor BACKOFFICE_SEALING_KEY_PREVIOUS ` +
        `(operator ${operatorIds.join(', ')}${more}); nothing was re-sealed. Check that _PREVIOUS holds the key the secrets were sealed with`,
    );
    this.name = 'UnopenableTotpSecretsError';
  }
}

const resealActor: AuditActor = { kind: 'system', id: 'totp-reseal', displayName: 'TOTP secret re-sealing (set-up CLI)' };
const resealTarget = { kind: 'sealing_key', id: 'BACKOFFICE_SEALING_KEY' };
const resealAction = 'sealing_key.reseal';

/**
 * Moves every operator's TOTP secret from the previous sealing key to the current one, so
 * replacing BACKOFFICE_SEALING_KEY does not make anyone enrol again. First a read-only pass opens
 * every secret: if any opens with neither key (a wrong previous key), the run is refused before it
 * changes anything. Then each secret under the previous key is re-sealed on its own (one
 * conditional UPDATE per row, in pages of batchSize by operator id), so the back-office keeps
 * serving sign-ins and no long transaction holds a lock. The secret itself never changes, nor does
 * the last accepted time step, so codes keep verifying. Secrets under the current key are left
 * alone: a second run changes nothing. One audit entry, as the system, records each run's counts.
 */
export async function resealTotpSecrets(pool: Pool, keys: TotpSealingKeys, batchSize: number): Promise<TotpResealOutcome> {
  const unopenable = await unopenableOperatorIds(pool, keys, batchSize);
  if (unopenable.count > 0) {
    await appendAuditEntry(pool, {
      actor: resealActor,
      action: resealAction,
      target: resealTarget,
      after: { unopenable: unopenable.count, unopenableOperatorIds: unopenable.shown },
      outcome: 'refused',
      reason: 'Some TOTP secrets open with neither the current nor the previous sealing key; nothing was re-sealed',
    });
    throw new UnopenableTotpSecretsError(unopenable.count, unopenable.shown);
  }
  const outcome: TotpResealOutcome = { operators: 0, resealed: 0, alreadyUnderCurrentKey: 0 };
  await forEachPage(pool, batchSize, async (row) => {
    const result = await resealOne(pool, keys, row);
    if (result === 'gone') return;
    outcome.operators += 1;
    if (result === 'resealed') outcome.resealed += 1;
    else outcome.alreadyUnderCurrentKey += 1;
  });
  await appendAuditEntry(pool, {
    actor: resealActor,
    action: resealAction,
    target: resealTarget,
    after: { operators: outcome.operators, resealed: outcome.resealed, alreadyUnderCurrentKey: outcome.alreadyUnderCurrentKey, previousKeyGiven: keys.previous !== undefined },
    outcome: 'done',
  });
  return outcome;
}

type KeyOfSecret = 'current' | 'previous' | 'neither';

/** Which key opens the secret; this only classifies, so the opened value is zeroed at once. */
function keyOfSecret(keys: TotpSealingKeys, row: SealedTotpSecretRow): KeyOfSecret {
  const binding = totpSecretBinding(row.operatorId);
  for (const [name, key] of [['current', keys.current], ['previous', keys.previous]] as const) {
    const plaintext = key === undefined ? undefined : openedWith(row.sealedSecret, key, binding);
    if (plaintext !== undefined) {
      plaintext.fill(0);
      return name;
    }
  }
  return 'neither';
}

async function unopenableOperatorIds(pool: Pool, keys: TotpSealingKeys, batchSize: number): Promise<{ count: number; shown: string[] }> {
  const found = { count: 0, shown: [] as string[] };
  await forEachPage(pool, batchSize, (row) => {
    if (keyOfSecret(keys, row) !== 'neither') return;
    found.count += 1;
    if (found.shown.length < unopenableOperatorIdsShownMax) found.shown.push(row.operatorId);
  });
  return found;
}

/** How often one row is read again after another writer changed it between the read and the write. */
const rowAttemptsMax = 3;

/**
 * Re-seals one secret under the current key if the previous key opens it. When the conditional
 * UPDATE finds the row changed (the operator enrolled again, another run re-sealed it), the row is
 * read again and judged afresh; a factor removed meanwhile is nothing to re-seal.
 */
async function resealOne(pool: Pool, keys: TotpSealingKeys, row: SealedTotpSecretRow): Promise<'resealed' | 'current' | 'gone'> {
  const binding = totpSecretBinding(row.operatorId);
  let sealedSecret: string | undefined = row.sealedSecret;
  for (let attempt = 1; attempt <= rowAttemptsMax && sealedSecret !== undefined; attempt += 1) {
    const key = keyOfSecret(keys, { operatorId: row.operatorId, sealedSecret });
    if (key === 'current') return 'current';
    if (key === 'neither' || keys.previous === undefined) throw new UnopenableTotpSecretsError(1, [row.operatorId]);
    const expected: string = sealedSecret;
    const plaintext = openedWith(expected, keys.previous, binding);
    if (plaintext === undefined) throw new UnopenableTotpSecretsError(1, [row.operatorId]);
    const resealed = seal(plaintext, keys.current, binding).toString('base64');
    plaintext.fill(0);
    if (await replaceSealedTotpSecret(pool, row.operatorId, expected, resealed)) return 'resealed';
    sealedSecret = await sealedTotpSecretOf(pool, row.operatorId);
  }
  if (sealedSecret === undefined) return 'gone';
  throw new Error(`The TOTP factor of operator ${row.operatorId} kept changing while it was re-sealed; run reseal-totp-secrets again`);
}

/** The opened secret (the caller zeroes it), or undefined when the key, the binding or a byte is wrong. */
function openedWith(sealedBase64: string, key: Buffer, binding: string): Buffer | undefined {
  try {
    return open(Buffer.from(sealedBase64, 'base64'), key, binding);
  } catch {
    return undefined;
  }
}

/** Every sealed secret, page by page in operator id order: at most batchSize rows in memory at once. */
async function forEachPage(pool: Pool, batchSize: number, visit: (row: SealedTotpSecretRow) => Promise<void> | void): Promise<void> {
  let after: string | null = null;
  for (;;) {
    const page = await sealedTotpSecretsAfter(pool, after, batchSize);
    for (const row of page) await visit(row);
    const last = page[page.length - 1];
    if (last === undefined || page.length < batchSize) return;
    after = last.operatorId;
  }
}
