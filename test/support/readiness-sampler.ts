/**
 * Samples readiness probes at a fixed interval while a fault test runs, as a Kubernetes readiness
 * probe would: a GET of each /readyz, recording its status (0 when nothing answered within the
 * probe's second). Each target is sampled by its own loop, so a slow probe does not delay another.
 */
import { probeHttp } from './process-probe';

export interface ReadinessSample {
  target: string;
  atMs: number;
  status: number;
}

export interface ReadinessSampler {
  samples: ReadinessSample[];
  /** Ends the loops after their probe in flight and resolves every sample taken. */
  stop(): Promise<ReadinessSample[]>;
}

/** targets: name → readiness URL, e.g. { gateway: 'http://127.0.0.1:9400/readyz' }. */
export function startReadinessSampler(targets: Record<string, string>, intervalMs: number): ReadinessSampler {
  const samples: ReadinessSample[] = [];
  let stopping = false;
  const sampleLoop = async (target: string, url: string): Promise<void> => {
    while (!stopping) {
      const atMs = Date.now();
      samples.push({ target, atMs, status: await probeHttp(url) });
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, atMs + intervalMs - Date.now())));
    }
  };
  const loops = Object.entries(targets).map(([target, url]) => sampleLoop(target, url));
  return {
    samples,
    stop: async () => {
      stopping = true;
      await Promise.all(loops);
      return samples.slice();
    },
  };
}

export interface ReadinessSummary {
  samples: number;
  ready: number;
  notReady: number;
  /** Time from the first to the last not-ready sample (0 when at most one). */
  notReadySpanMs: number;
}

/** The summary of one target's samples taken within [fromMs, toMs]. */
export function summariseReadiness(samples: ReadinessSample[], target: string, fromMs = 0, toMs = Number.MAX_SAFE_INTEGER): ReadinessSummary {
  const mine = samples.filter((sample) => sample.target === target && sample.atMs >= fromMs && sample.atMs <= toMs);
  const notReady = mine.filter((sample) => sample.status !== 200);
  const first = notReady[0]?.atMs ?? 0;
  const last = notReady[notReady.length - 1]?.atMs ?? 0;
  return { samples: mine.length, ready: mine.length - notReady.length, notReady: notReady.length, notReadySpanMs: last - first };
}
