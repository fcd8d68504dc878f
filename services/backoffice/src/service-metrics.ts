import { verifyAuditChain } from '@pwa/audit';
import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { Gauge, type Registry } from 'prom-client';

/** How often the audit chain is walked for the gauge; a walk reads the whole chain, so not at every scrape. */
const auditVerifyIntervalMs = 15 * 60_000;
/** The window the sign-in refusal gauges count over. */
const signInWindowMinutes = 15;

export interface BackofficeMetrics {
  stop: () => void;
}

/**
 * The back-office's own gauges, read from its database when Prometheus scrapes (the alerts of
 * deploy/prometheus/rules: approved requests not executing, sign-in lockouts, the audit chain):
 * - backoffice_approval_requests{status}: requests by status now;
 * - backoffice_approved_unexecuted_oldest_seconds: how long the oldest approved request has waited
 *   for its owner to apply it (0 when none waits);
 * - backoffice_sign_in_refusals{reason}: sign-ins refused in the last 15 minutes, from the audit log
 *   (account_locked, address_throttled, wrong password...);
 * - backoffice_audit_chain_intact{chain="audit_log"} (1 sound, 0 broken; absent before the first walk) and
 *   backoffice_audit_chain_verified_timestamp_seconds (0 until a walk finishes), from a walk of the
 *   chain every 15 minutes (the first one at start).
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
  new Gauge({
    name: 'backoffice_sign_in_refusals',
    help: `Sign-ins refused in the last ${signInWindowMinutes} minutes, by reason (from the audit log)`,
    labelNames: ['reason'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await pool.query<{ reason: string; count: string }>(
          `SELECT reason, count(*)::text AS count FROM audit_log
            WHERE action LIKE 'operator.sign\\_in.%' AND outcome = 'refused' AND occurred_at > now() - make_interval(mins => $1)
            GROUP BY reason`,
          [signInWindowMinutes],
        );
        this.reset();
        for (const reason of ['account_locked', 'address_throttled']) this.set({ reason }, 0);
        for (const row of rows.rows) this.set({ reason: reasonLabelOf(row.reason) }, Number(row.count));
      } catch (error) {
        readFailed('backoffice_sign_in_refusals')(error);
      }
    },
  });
  // Labelled so that no series exists before the first walk: an unlabelled gauge would read 0 (broken) until then.
  const chainIntact = new Gauge({
    name: 'backoffice_audit_chain_intact',
    help: 'Whether the last walk of the audit chain found it sound (1) or broken (0); absent until the first walk',
    labelNames: ['chain'] as const,
    registers: [registry],
  });
  const chainVerifiedAt = new Gauge({
    name: 'backoffice_audit_chain_verified_timestamp_seconds',
    help: 'When the audit chain was last walked to the end (Unix seconds)',
    registers: [registry],
  });
  const verify = async (): Promise<void> => {
    try {
      const verification = await verifyAuditChain(pool);
      chainIntact.set({ chain: 'audit_log' }, verification.ok ? 1 : 0);
      chainVerifiedAt.set(Date.now() / 1000);
      if (!verification.ok) logger.error({ firstBrokenSequence: verification.firstBrokenSequence, problem: verification.problem }, 'the audit chain is broken');
    } catch (error) {
      readFailed('backoffice_audit_chain_intact')(error);
    }
  };
  void verify();
  const timer = setInterval(() => void verify(), auditVerifyIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Reasons are the audit log's words; anything unexpected is one label, so the series stay few. */
function reasonLabelOf(reason: string): string {
  return ['account_locked', 'address_throttled', 'wrong password', 'no active operator with this address', 'replayed_code'].includes(reason) ? reason.replace(/ /g, '_') : 'other';
}
