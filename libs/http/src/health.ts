import { Router } from 'express';
import type { Registry } from 'prom-client';

/** A named readiness probe; it resolves when the dependency answers and rejects otherwise. */
export interface ReadinessCheck {
  name: string;
  check: () => Promise<void>;
}

const readinessTimeoutMs = 2000;

/** /healthz (the process is alive), /readyz (every dependency answers) and /metrics. */
export function operationalRoutes(registry: Registry, readinessChecks: readonly ReadinessCheck[]): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
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
