import type { AccessTokenClaims } from './access-token';

/**
 * Remembers the claims of tokens whose signature, issuer and audience were already verified, so a
 * partner's repeated requests with one token cost a map lookup instead of an ECDSA verification
 * (the largest CPU cost of the gateway under load). Only successful verifications are remembered,
 * and expiry is still checked on every request by the caller. Bounded: when full, the oldest entry
 * goes first. A retired signing key stays published until its tokens expire, so a remembered token
 * can never outlive its key's publication.
 */
export class VerifiedTokenCache {
  private readonly claimsByToken = new Map<string, AccessTokenClaims>();

  constructor(private readonly entryCountMax: number) {}

  get(token: string): AccessTokenClaims | undefined {
    return this.claimsByToken.get(token);
  }

  remember(token: string, claims: AccessTokenClaims): void {
    if (this.entryCountMax <= 0) return;
    if (this.claimsByToken.size >= this.entryCountMax) {
      const oldest = this.claimsByToken.keys().next();
      if (oldest.done !== true) this.claimsByToken.delete(oldest.value);
    }
    this.claimsByToken.set(token, claims);
  }

  get size(): number {
    return this.claimsByToken.size;
  }
}
