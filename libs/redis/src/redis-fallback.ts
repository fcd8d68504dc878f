import type { Redis } from 'ioredis';

export interface RedisFallbackOptions {
  nowMs: () => number;
  /** Called once when the gateway starts counting in memory (Redis failed or is not connected). */
  onEnter: () => void;
  /** Called once when Redis answers again; seconds is how long this fallback lasted. */
  onLeave: (fallbackSeconds: number) => void;
  /**
   * While in fallback, Redis is tried at most once per this interval (the other calls go straight
   * to memory), so a Redis that accepts connections but does not answer costs one command timeout
   * per interval rather than one per request. Defaults to 1000.
   */
  probeIntervalMs?: number;
}

const probeIntervalMsDefault = 1_000;

/**
 * Whether the gateway's limits are counted in this instance's memory because Redis cannot be
 * used, and for how long in all. It enters at the first sign of trouble (a limiter served from
 * its insurance, a failed lockout read, the connection closing) and leaves at the first sign of
 * health (a count Redis answered, the connection ready again), so it returns to Redis by itself.
 */
export class RedisFallback {
  private activeSinceMs: number | undefined;
  private lastProbeMs = Number.NEGATIVE_INFINITY;
  private endedSecondsTotal = 0;
  private stopped = false;

  constructor(private readonly options: RedisFallbackOptions) {}

  noteRedisFailed(): void {
    if (this.stopped || this.activeSinceMs !== undefined) return;
    this.activeSinceMs = this.options.nowMs();
    this.lastProbeMs = this.activeSinceMs;
    this.options.onEnter();
  }

  /** Whether this call should try Redis: always outside fallback, once per probe interval in it. */
  shouldTryRedis(): boolean {
    if (this.activeSinceMs === undefined) return true;
    const nowMs = this.options.nowMs();
    if (nowMs - this.lastProbeMs < (this.options.probeIntervalMs ?? probeIntervalMsDefault)) return false;
    this.lastProbeMs = nowMs;
    return true;
  }

  noteRedisAnswered(): void {
    if (this.activeSinceMs === undefined) return;
    const seconds = this.secondsSince(this.activeSinceMs);
    this.activeSinceMs = undefined;
    this.endedSecondsTotal += seconds;
    if (!this.stopped) this.options.onLeave(seconds);
  }

  isActive(): boolean {
    return this.activeSinceMs !== undefined;
  }

  /** Seconds spent in fallback since start, the current fallback included. */
  secondsTotal(): number {
    return this.endedSecondsTotal + (this.activeSinceMs === undefined ? 0 : this.secondsSince(this.activeSinceMs));
  }

  /** The gateway is stopping: closing its own connection is no outage. */
  stop(): void {
    this.stopped = true;
  }

  private secondsSince(startMs: number): number {
    return Math.max(0, this.options.nowMs() - startMs) / 1000;
  }
}

/** The connection's own signals: closed means fallback from now on, ready means Redis is back. */
export function followRedisConnection(redis: Redis, fallback: RedisFallback): void {
  redis.on('close', () => fallback.noteRedisFailed());
  redis.on('ready', () => fallback.noteRedisAnswered());
}
