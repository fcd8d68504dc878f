import type { KeyObject } from 'node:crypto';

export interface SigningKeySetOptions {
  /** Fetches auth's published keys by key id; rejects when auth cannot be reached. */
  fetchKeys: () => Promise<Map<string, KeyObject>>;
  /** An unknown key id triggers a refetch at most this often, so random kids cannot flood auth. */
  refreshMinIntervalMs: number;
  /** Known keys are refreshed in the background after this age, so a withdrawn key stops working. */
  maxAgeMs: number;
  nowMs: () => number;
  onBackgroundRefreshFailed: (error: unknown) => void;
}

/**
 * The gateway's copy of auth's public signing keys (the JWKS). A token whose key id is unknown
 * causes one rate-limited refetch, which is how keys rotated in by auth become known.
 */
export class SigningKeySet {
  private keys = new Map<string, KeyObject>();
  private fetchedAtMs: number | undefined;
  private lastAttemptAtMs: number | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly options: SigningKeySetOptions) {}

  /**
   * The key for a key id, or undefined when auth does not publish it (the token is not ours).
   * Rejects only when a refetch was needed and auth could not be reached: then nobody can tell.
   */
  async keyFor(keyId: string): Promise<KeyObject | undefined> {
    const known = this.keys.get(keyId);
    if (known) {
      if (this.isStale() && this.mayAttempt()) this.refreshInBackground();
      return known;
    }
    if (this.inFlight) await this.inFlight;
    else if (this.mayAttempt()) await this.refresh();
    return this.keys.get(keyId);
  }

  /** Loads the keys now (at start, say). */
  refresh(): Promise<void> {
    this.inFlight ??= this.fetchOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchOnce(): Promise<void> {
    this.lastAttemptAtMs = this.options.nowMs();
    this.keys = await this.options.fetchKeys();
    this.fetchedAtMs = this.options.nowMs();
  }

  private refreshInBackground(): void {
    this.refresh().catch(this.options.onBackgroundRefreshFailed);
  }

  /**
   * Until the keys have loaded once, every request that needs them may try (one fetch at a time,
   * behind auth's breaker): without them the gateway can verify nothing. Afterwards, fetches are
   * spaced by the minimum interval whatever their outcome.
   */
  private mayAttempt(): boolean {
    if (this.fetchedAtMs === undefined || this.lastAttemptAtMs === undefined) return true;
    return this.options.nowMs() - this.lastAttemptAtMs >= this.options.refreshMinIntervalMs;
  }

  private isStale(): boolean {
    return this.fetchedAtMs === undefined || this.options.nowMs() - this.fetchedAtMs >= this.options.maxAgeMs;
  }
}
