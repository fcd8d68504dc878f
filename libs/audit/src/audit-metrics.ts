import type { Pool } from '@pwa/db';
import type { Logger } from '@pwa/logging';
import { Gauge, type Registry } from 'prom-client';
import { verifyAuditChain } from './verify-chain';

/** How often the audit chain is walked for the gauge; a walk reads the whole chain, so not at every scrape. */
const auditVerifyIntervalMs = 15 * 60_000;
/** The window the sign-in refusal gauge counts over. */
const signInWindowMinutes = 15;
/** The throttle's reasons (libs/web-auth): always reported, 0 when none, as the lockout alerts read them. */
const throttleReasons = ['account_locked', 'address_throttled'] as const;

export interface AuditMetricsSettings {
  /** The first word of the metric names, the service's: `backoffice` gives backoffice_sign_in_refusals. */
  prefix: string;
  registry: Registry;
  /** A pool whose search_path is the service's schema, where its audit_log is. */
  pool: Pool;
  logger: Logger;
  /** The audit actions of the sign-in steps start with it: `operator.sign_in.` (matched literally, `_` included). */
  signInActionPrefix: string;
  /** The refusal reasons of those steps that keep a label of their own (spaces become `_`); any other is `other`. */
  signInRefusalReasons: readonly string[];
}

export interface AuditMetrics {
  stop: () => void;
}

/**
 * The gauges a service with an audit log reports for its on-call, read from its database (the
 * alerts Pwa<Service>SignInLockouts, Pwa<Service>AuditChainBroken and Pwa<Service>AuditChainUnverified):
 * - <prefix>_sign_in_refusals{reason}: sign-ins refused in the last 15 minutes, from the audit log,
 *   read when Prometheus scrapes; account_locked and address_throttled are always there;
 * - <prefix>_audit_chain_intact{chain="audit_log"} (1 sound, 0 broken; absent before the first walk)
 *   and <prefix>_audit_chain_verified_timestamp_seconds (0 until a walk finishes), from a walk of the
 *   chain every 15 minutes, the first one at once.
 * A failed read leaves the gauges as they were and logs why: /metrics still answers.
 */
export function registerAuditMetrics(settings: AuditMetricsSettings): AuditMetrics {
  registerSignInRefusals(settings);
  return registerAuditChainWalk(settings);
}

function readFailed(logger: Logger, metric: string, error: unknown): void {
  logger.warn({ err: error, metric }, 'audit metric not read; it keeps its last value');
}

function registerSignInRefusals(settings: AuditMetricsSettings): void {
  const { prefix, registry, pool, logger, signInActionPrefix, signInRefusalReasons } = settings;
  const name = `${prefix}_sign_in_refusals`;
  const actionPattern = `${likeEscaped(signInActionPrefix)}%`;
  new Gauge({
    name,
    help: `Sign-ins refused in the last ${signInWindowMinutes} minutes, by reason (from the audit log)`,
    labelNames: ['reason'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await pool.query<{ reason: string; count: string }>(
          `SELECT reason, count(*)::text AS count FROM audit_log
            WHERE action LIKE $1 AND outcome = 'refused' AND occurred_at > now() - make_interval(mins => $2)
            GROUP BY reason`,
          [actionPattern, signInWindowMinutes],
        );
        this.reset();
        for (const reason of throttleReasons) this.set({ reason }, 0);
        for (const row of rows.rows) this.inc({ reason: reasonLabelOf(row.reason, signInRefusalReasons) }, Number(row.count));
      } catch (error) {
        readFailed(logger, name, error);
      }
    },
  });
}

function registerAuditChainWalk(settings: AuditMetricsSettings): AuditMetrics {
  const { prefix, registry, pool, logger } = settings;
  // Labelled so that no series exists before the first walk: an unlabelled gauge would read 0 (broken) until then.
  const chainIntact = new Gauge({
    name: `${prefix}_audit_chain_intact`,
    help: 'Whether the last walk of the audit chain found it sound (1) or broken (0); absent until the first walk',
    labelNames: ['chain'] as const,
    registers: [registry],
  });
  const chainVerifiedAt = new Gauge({
    name: `${prefix}_audit_chain_verified_timestamp_seconds`,
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
      readFailed(logger, `${prefix}_audit_chain_intact`, error);
    }
  };
  void verify();
  const timer = setInterval(() => void verify(), auditVerifyIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Reasons are the audit log's words; anything unexpected is one label, so the series stay few. */
function reasonLabelOf(reason: string, known: readonly string[]): string {
  return (throttleReasons as readonly string[]).includes(reason) || known.includes(reason) ? reason.replace(/ /g, '_') : 'other';
}

/** The text as a LIKE pattern that matches only itself (the default escape character is the backslash). */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
