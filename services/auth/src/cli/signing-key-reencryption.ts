import { withTransaction, type Pool } from '@pwa/db';
import { decryptPrivateKey, encryptPrivateKey } from '../domain/signing-key';
import { lockAllSigningKeys, replacePrivateKeyCiphertext } from '../store/signing-key-store';

export interface ReencryptOutcome {
  keys: number;
  reencrypted: number;
  /** Keys that decrypted with the new key already (a repeated run). */
  alreadyUnderNewKey: number;
}

/**
 * Re-encrypts every signing key's private key (retired ones too) from the old key-encryption key
 * to the new one, in one transaction: either all rows move or none. The keys themselves do not
 * change, so every token issued stays valid and the published JWKS is the same. Auth processes
 * still running with the old key cannot sign once this commits; restart them with the new key
 * (docs/operations.md, Rotating secrets).
 */
export async function reencryptSigningKeys(pool: Pool, oldKey: Buffer, newKey: Buffer): Promise<ReencryptOutcome> {
  return withTransaction(pool, async (client) => {
    const outcome: ReencryptOutcome = { keys: 0, reencrypted: 0, alreadyUnderNewKey: 0 };
    for (const row of await lockAllSigningKeys(client)) {
      outcome.keys += 1;
      if (decryptsWith(row.privateKeyCiphertext, row.kid, newKey)) {
        outcome.alreadyUnderNewKey += 1;
        continue;
      }
      let privateKey;
      try {
        privateKey = decryptPrivateKey(row.privateKeyCiphertext, row.kid, oldKey);
      } catch {
        throw new Error(`Signing key ${row.kid} decrypts with neither the old nor the new key-encryption key; nothing was changed`);
      }
      await replacePrivateKeyCiphertext(client, row.kid, encryptPrivateKey(privateKey, row.kid, newKey));
      outcome.reencrypted += 1;
    }
    return outcome;
  });
}

function decryptsWith(ciphertext: Buffer, kid: string, key: Buffer): boolean {
  try {
    decryptPrivateKey(ciphertext, kid, key);
    return true;
  } catch {
    return false;
  }
}
