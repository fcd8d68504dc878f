import type { Logger } from '@pwa/logging';

/** One thing to stop: a listener, a worker, the outbox relay's last pass, a connection, a pool. */
export interface ShutdownStep {
  name: string;
  run: () => unknown;
}

/**
 * The order of a stop. Entries run one after another; an entry that is an array is a group whose
 * steps run at the same time (the HTTP listener and the workers stop taking work together, say),
 * and the next entry starts when every step of the group has settled.
 */
export type ShutdownSequence = readonly (ShutdownStep | readonly ShutdownStep[])[];

export interface ShutdownReport {
  /** stopped: every step succeeded; failed: some step threw (the others still ran); timed_out: the deadline passed first. */
  outcome: 'stopped' | 'failed' | 'timed_out';
  failedSteps: string[];
  /** Steps still running, or never started, when the deadline passed. */
  unfinishedSteps: string[];
  elapsedMs: number;
}

export interface ShutdownSequenceOptions {
  /** Bound of the whole sequence; without it the sequence runs to its end. */
  timeoutMs?: number;
  logger?: Logger;
}

/**
 * Runs a stop sequence in order. A step that throws is logged and recorded, and the sequence goes
 * on: a relay that cannot publish must not keep the pool open. When the deadline passes first the
 * report says which steps had not finished, and no further step starts.
 */
export async function runShutdownSequence(sequence: ShutdownSequence, options: ShutdownSequenceOptions = {}): Promise<ShutdownReport> {
  const startedAtMs = Date.now();
  const pending = new Set(sequence.flatMap((entry) => (isGroup(entry) ? entry.map((step) => step.name) : [entry.name])));
  const failedSteps: string[] = [];
  let abandoned = false;
  const runStep = async (step: ShutdownStep): Promise<void> => {
    const stepStartedAtMs = Date.now();
    try {
      await step.run();
      options.logger?.info({ step: step.name, durationMs: Date.now() - stepStartedAtMs }, 'shutdown step done');
    } catch (error) {
      failedSteps.push(step.name);
      options.logger?.error({ err: error, step: step.name, durationMs: Date.now() - stepStartedAtMs }, 'shutdown step failed; continuing with the next');
    } finally {
      pending.delete(step.name);
    }
  };
  const runAll = async (): Promise<void> => {
    for (const entry of sequence) {
      if (abandoned) return;
      await Promise.all((isGroup(entry) ? entry : [entry]).map(runStep));
    }
  };
  const finished = await settleWithin(runAll(), options.timeoutMs);
  if (!finished) abandoned = true;
  const report: ShutdownReport = {
    outcome: !finished ? 'timed_out' : failedSteps.length > 0 ? 'failed' : 'stopped',
    failedSteps,
    unfinishedSteps: finished ? [] : [...pending],
    elapsedMs: Date.now() - startedAtMs,
  };
  return report;
}

/** A stop function for tests and callers without a deadline: runs the sequence, rejects naming the steps that failed. */
export function stopInOrder(sequence: ShutdownSequence, logger?: Logger): () => Promise<void> {
  return async () => {
    const report = await runShutdownSequence(sequence, { logger });
    if (report.outcome !== 'stopped') throw new Error(`stop failed at: ${report.failedSteps.join(', ')}`);
  };
}

/** What the outbox relay offers (libs/bus OutboxRelay): one batch now, and stop. */
export interface FlushableRelay {
  flushNow(): Promise<number>;
  stop(): Promise<void>;
}

/** Bound of the last relay passes at shutdown (100 rows each with the relay's default batch). */
const relayFlushPassesMax = 20;

/**
 * The relay's last passes before it stops, so events committed by the requests and handlers that
 * just finished go out now rather than when another replica (or the next start) polls. Bounded:
 * a broker that cannot take them leaves them in the outbox, where they are safe.
 */
export async function flushAndStopRelay(relay: FlushableRelay): Promise<void> {
  try {
    for (let pass = 0; pass < relayFlushPassesMax; pass += 1) {
      if ((await relay.flushNow()) === 0) break;
    }
  } finally {
    await relay.stop();
  }
}

function isGroup(entry: ShutdownStep | readonly ShutdownStep[]): entry is readonly ShutdownStep[] {
  return Array.isArray(entry);
}

/** True when the promise settled before the timeout (it never rejects: steps catch their own errors). */
async function settleWithin(promise: Promise<void>, timeoutMs: number | undefined): Promise<boolean> {
  if (timeoutMs === undefined) {
    await promise;
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
