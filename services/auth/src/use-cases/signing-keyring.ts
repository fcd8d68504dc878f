import type { KeyObject } from 'node:crypto';
import { withTransaction, type Pool } from '@pwa/db';
import { decryptPrivateKeyWithEither, encryptPrivateKey, generateSigningKey, type KeyEncryptionKeys, type PublicSigningKey } from '../domain/signing-key';
import { findActiveSigningKey, insertSigningKey, listPublishedSigningKeys, retireActiveSigningKey } from '../store/signing-key-store';

export interface ActiveSigningKey {
  kid: string;
  privateKey: KeyObject;
}

/** Extra time a retired key stays published beyond the token lifetime, for clock skew and caches. */
const publicationMarginSeconds = 300;
const activeKeyCacheMs = 5_000;

/**
 * The environment's signing keys. One key signs at a time; after a rotation the previous key stays
 * in the published set until every token it signed has expired, so rotation invalidates nothing.
 * Their private keys are stored encrypted under the current key-encryption key; during a rotation
 * of that key the previous one still decrypts, so no token request is refused.
 */
export class SigningKeyring {
  private cachedActive: { key: ActiveSigningKey; loadedAtMs: number } | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly encryptionKeys: KeyEncryptionKeys,
    private readonly tokenTtlSeconds: number,
  ) {}

  /** Creates the first key of a new environment; safe when several replicas boot together. */
  async ensureActiveKey(): Promise<void> {
    if (await findActiveSigningKey(this.pool)) return;
    try {
      await this.insertNewActiveKey(false);
    } catch (error) {
      if ((error as { code?: string }).code !== '23505') throw error; // another replica created it first
    }
  }

  /** Retires the signing key and activates a new one; returns the new kid. */
  async rotate(): Promise<string> {
    const kid = await this.insertNewActiveKey(true);
    this.cachedActive = undefined;
    return kid;
  }

  async activeKey(): Promise<ActiveSigningKey> {
    const now = Date.now();
    if (this.cachedActive && now - this.cachedActive.loadedAtMs < activeKeyCacheMs) return this.cachedActive.key;
    const row = await findActiveSigningKey(this.pool);
    if (!row) throw new Error('No active signing key');
    const key = { kid: row.kid, privateKey: decryptPrivateKeyWithEither(row.privateKeyCiphertext, row.kid, this.encryptionKeys) };
    this.cachedActive = { key, loadedAtMs: now };
    return key;
  }

  async publishedKeys(): Promise<PublicSigningKey[]> {
    const rows = await listPublishedSigningKeys(this.pool, this.tokenTtlSeconds + publicationMarginSeconds);
    return rows.map((row) => ({ kid: row.kid, jwk: row.publicJwk }));
  }

  private async insertNewActiveKey(retireCurrent: boolean): Promise<string> {
    const generated = generateSigningKey();
    const sealed = encryptPrivateKey(generated.privateKey, generated.kid, this.encryptionKeys.current);
    await withTransaction(this.pool, async (client) => {
      if (retireCurrent) await retireActiveSigningKey(client);
      await insertSigningKey(client, generated.kid, generated.jwk, sealed);
    });
    return generated.kid;
  }
}
