import { Router } from 'express';
import { Gauge, type Registry } from 'prom-client';

/** A named readiness probe; it resolves when the dependency answers and rejects otherwise. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

const readinessTimeoutMs = 2000;

/**
 * Whether this process is shutting down. It is process-wide on purpose: a signal stops the whole
 * process, so every listener in it (the gateway's public and admin ports alike) reports not ready
 * from the same moment, before any of them closes.
 */
let drainingSinceMs: number | undefined;

/** Marks the process as draining: /readyz answers 503 and service_ready reads 0 from now on. */
export function beginDraining(): void {
  drainingSinceMs ??= Date.now();
}

export function isDraining(): boolean {
  return drainingSinceMs !== undefined;
}

/** Tests that drain a service in-process give the next one a clean start. */
export function resetDrainingForTests(): void {
  drainingSinceMs = undefined;
}

/** /healthz (the process is alive), /readyz (every dependency answers, and not draining) and /metrics. */
export function operationalRoutes(registry: Registry, readinessChecks: readonly ReadinessCheck[]): Router {
  registerReadyGauge(registry, readinessChecks);
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (drainingSinceMs !== undefined) {
      res.status(503).json({ status: 'draining', message: 'shutting down: finishing work in flight, taking no new work', drainingSince: new Date(drainingSinceMs).toISOString() });
      return;
    }
    const results = await Promise.all(readinessChecks.map(runCheck));
    const ready = results.every((result) => result.ok);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: results });
  });
  router.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', registry.contentType);
    res.send(await registry.metrics());
  });
  return router;
}

/** service_ready: the readiness answer at scrape time (the checks run then), 0 while draining. */
function registerReadyGauge(registry: Registry, readinessChecks: readonly ReadinessCheck[]): void {
  if (registry.getSingleMetric('service_ready') !== undefined) return;
  new Gauge({
    name: 'service_ready',
    help: '1 while the readiness checks pass and the service is not draining, 0 otherwise',
    registers: [registry],
    async collect() {
      if (drainingSinceMs !== undefined) {
        this.set(0);
        return;
      }
      const results = await Promise.all(readinessChecks.map(runCheck));
      this.set(drainingSinceMs === undefined && results.every((result) => result.ok) ? 1 : 0);
    },
  });
}

async function runCheck(readiness: ReadinessCheck): Promise<{ name: string; ok: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), readinessTimeoutMs);
  });
  try {
    await Promise.race([readiness.check(), timeout]);
    return { name: readiness.name, ok: true };
  } catch {
    return { name: readiness.name, ok: false };
  } finally {
    clearTimeout(timer);
  }
}
