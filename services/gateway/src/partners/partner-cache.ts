import type { PartnerRecord } from '../domain/partner-access';

export interface PartnerCacheOptions {
  /** Loads a partner from auth; undefined when auth does not know it. Rejects when auth is unreachable. */
  load: (partnerId: string) => Promise<PartnerRecord | undefined>;
  /**
   * How long an entry may be used, read at every lookup (so a change applies to entries already
   * stored): the gateway shortens it while the broker is away and invalidations cannot arrive.
   */
  ttlMs: number | (() => number);
  /** Bounds memory: the oldest entry is dropped when a new one would exceed it. */
  maxEntries: number;
  nowMs: () => number;
}

interface Entry {
  record: PartnerRecord | undefined;
  storedAtMs: number;
}

interface Load {
  promise: Promise<PartnerRecord | undefined>;
}

/**
 * Partner status and permissions for every request, without asking auth every time. Entries live
 * for ttlMs at most and are dropped as soon as a partner event says the partner changed, so a
 * suspension takes effect within an event's delivery time (and within ttlMs if an event is lost).
 * Unknown partners are cached too, so a token of a deleted partner cannot make auth busy.
 */
export class PartnerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loads = new Map<string, Load>();

  constructor(private readonly options: PartnerCacheOptions) {}

  async get(partnerId: string): Promise<PartnerRecord | undefined> {
    const entry = this.entries.get(partnerId);
    if (entry && entry.storedAtMs + this.ttlMs() > this.options.nowMs()) return entry.record;
    const pending = this.loads.get(partnerId);
    if (pending) return pending.promise;
    return this.startLoad(partnerId);
  }

  /** Forgets a partner; a load already under way will not store its (possibly older) answer. */
  invalidate(partnerId: string): void {
    this.entries.delete(partnerId);
    this.loads.delete(partnerId);
  }

  /** Forgets everything (after a bus reconnect, when events may have been missed). */
  clear(): void {
    this.entries.clear();
    this.loads.clear();
  }

  private ttlMs(): number {
    const { ttlMs } = this.options;
    return typeof ttlMs === 'number' ? ttlMs : ttlMs();
  }

  get size(): number {
    return this.entries.size;
  }

  private startLoad(partnerId: string): Promise<PartnerRecord | undefined> {
    const load: Load = { promise: this.options.load(partnerId) };
    this.loads.set(partnerId, load);
    load.promise.then(
      (record) => {
        if (this.loads.get(partnerId) !== load) return;
        this.loads.delete(partnerId);
        this.store(partnerId, record);
      },
      () => {
        if (this.loads.get(partnerId) === load) this.loads.delete(partnerId);
      },
    );
    return load.promise;
  }

  private store(partnerId: string, record: PartnerRecord | undefined): void {
    this.entries.delete(partnerId);
    if (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(partnerId, { record, storedAtMs: this.options.nowMs() });
  }
}
