import { registerAuditMetrics } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { Gauge, type Registry } from 'prom-client';

export interface BackofficeMetrics {
  stop: () => void;
}

/**
 * The back-office's own gauges, read from its database when Prometheus scrapes (the alerts of
 * deploy/prometheus/rules: approved requests not executing, sign-in lockouts, the audit chain):
 * - backoffice_approval_requests{status}: requests by status now;
 * - backoffice_approved_unexecuted_oldest_seconds: how long the oldest approved request has waited
 *   for its owner to apply it (0 when none waits);
 * - backoffice_sign_in_refusals{reason}, backoffice_audit_chain_intact{chain="audit_log"} and
 *   backoffice_audit_chain_verified_timestamp_seconds: libs/audit's registerAuditMetrics, over the
 *   operators' sign-in actions (operator.sign_in.*) and their refusal reasons.
 * A failed read leaves the gauges as they were and logs why: /metrics still answers.
 */
export function registerBackofficeMetrics(registry: Registry, pool: Pool, logger: Logger): BackofficeMetrics {
  const readFailed = (what: string) => (error: unknown) => logger.warn({ err: error, metric: what }, 'back-office metric not read; it keeps its last value');
  new Gauge({
    name: 'backoffice_approval_requests',
    help: 'Four-eyes approval requests by status, now',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await pool.query<{ status: string; count: string }>('SELECT status, count(*)::text AS count FROM approval_requests GROUP BY status');
        this.reset();
        for (const status of ['pending', 'approved', 'rejected', 'expired', 'executed', 'failed']) this.set({ status }, 0);
        for (const row of rows.rows) this.set({ status: row.status }, Number(row.count));
      } catch (error) {
        readFailed('backoffice_approval_requests')(error);
      }
    },
  });
  new Gauge({
    name: 'backoffice_approved_unexecuted_oldest_seconds',
    help: 'Seconds the oldest approved, not yet executed request has waited since its approval (0 when none waits)',
    registers: [registry],
    async collect() {
      try {
        const rows = await pool.query<{ age: string | null }>(
          "SELECT EXTRACT(EPOCH FROM (now() - min(decided_at)))::text AS age FROM approval_requests WHERE status = 'approved'",
        );
        this.set(Math.max(0, Number(rows.rows[0]?.age ?? 0)));
      } catch (error) {
        readFailed('backoffice_approved_unexecuted_oldest_seconds')(error);
      }
    },
  });
  return registerAuditMetrics({
    prefix: 'backoffice',
    registry,
    pool,
    logger,
    signInActionPrefix: 'operator.sign_in.',
    signInRefusalReasons: ['wrong password', 'no active operator with this address', 'replayed_code'],
  });
}
