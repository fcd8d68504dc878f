import { startPeriodicTask } from '@pwa/runtime';
import type { Logger } from '@pwa/logging';
import type { InvariantReport } from '../domain/ledger-invariants';

export interface InvariantMonitorOptions {
  /** The check itself (the check-ledger use case on the service's pool). */
  check: () => Promise<InvariantReport>;
  intervalMs: number;
  /** Told the verdict of every check that completed. */
  onChecked: (ok: boolean) => void;
  logger: Logger;
}

export interface InvariantMonitor {
  /** Stops scheduling and waits for a check still running. */
  stop(): Promise<void>;
}

/** Problem messages put in the error log line; the names of all violated invariants are always there. */
const loggedProblemsMax = 10;

/**
 * Checks the ledger's invariants at start and then every `intervalMs`, never two at once (the next
 * check is scheduled when one ends). The database enforces the invariants on every write, so a
 * violation means something went around it: it is logged as an error naming the invariants and
 * reported (ledger_invariant_ok 0) for the alert. A check that cannot run (the database is
 * unreachable) reports nothing, so the last-run time goes stale instead of claiming a verdict.
 */
export function startInvariantMonitor(options: InvariantMonitorOptions): InvariantMonitor {
  const runOnce = async (): Promise<void> => {
    let report: InvariantReport;
    try {
      report = await options.check();
    } catch (error) {
      options.logger.warn({ err: error }, 'ledger invariant check could not run; it runs again at the next interval');
      return;
    }
    options.onChecked(report.ok);
    if (!report.ok) {
      const violations = [...new Set(report.problems.map((problem) => problem.invariant))];
      options.logger.error(
        { violations, problemCount: report.problems.length, problems: report.problems.slice(0, loggedProblemsMax).map((problem) => problem.message) },
        `ledger invariant check failed: ${violations.join(', ')}`,
      );
    }
  };
  const task = startPeriodicTask({ name: 'ledger-invariant-monitor', intervalMs: options.intervalMs, firstRunDelayMs: 0, run: runOnce, logger: options.logger });
  return { stop: () => task.stop() };
}
