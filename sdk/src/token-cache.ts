/** A token and when the client should stop using it (already shortened by the refresh margin). */
interface CachedToken {
  accessToken: string;
  refreshAtMs: number;
}

export interface IssuedToken {
  accessToken: string;
  expiresInSeconds: number;
}

/**
 * Holds the access token: one fetch at a time (concurrent calls wait for the same fetch), reused
 * until `margin` before it expires, dropped when the API says it expired (401 PKC_1003).
 */
export class TokenCache {
  private current: CachedToken | undefined;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    private readonly refreshMarginSeconds: number,
    private readonly now: () => number,
  ) {}

  async get(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAtMs) return this.current.accessToken;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** Forget `accessToken` if it is still the cached one (another call may have replaced it already). */
  invalidate(accessToken: string): void {
    if (this.current?.accessToken === accessToken) this.current = undefined;
  }

  private async fetch(): Promise<string> {
    const requestedAtMs = this.now();
    const issued = await this.issue();
    // The margin never eats more than a quarter of a short lifetime, so a short-lived token is still reused.
    const marginSeconds = Math.min(this.refreshMarginSeconds, issued.expiresInSeconds / 4);
    this.current = { accessToken: issued.accessToken, refreshAtMs: requestedAtMs + (issued.expiresInSeconds - marginSeconds) * 1000 };
    return issued.accessToken;
  }
}
