import { Writable } from 'node:stream';
import { createLogger } from '@pwa/logging';
import type { InvariantReport } from '../../src/domain/ledger-invariants';
import { startInvariantMonitor } from '../../src/workers/invariant-monitor';

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { logger: createLogger({ service: 'wallet-test', level: 'info', destination }), lines: () => chunks.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const sound: InvariantReport = { ok: true, currencies: [], problems: [] };
const broken: InvariantReport = {
  ok: false,
  currencies: [],
  problems: [
    { invariant: 'balance_equals_entries', message: 'account 7 (USD) stores 905 but its entries sum to 900' },
    { invariant: 'currency_sums_to_zero', message: 'balances in USD sum to 5, not zero' },
  ],
};

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('the ledger invariant monitor', () => {
  it('when checks pass and then find a violation, then each verdict is reported and the failure is logged as an error naming the invariants', async () => {
    const reports = [sound, broken];
    const verdicts: boolean[] = [];
    const { logger, lines } = capturingLogger();
    const monitor = startInvariantMonitor({ check: () => Promise.resolve(reports.shift() ?? sound), intervalMs: 10, onChecked: (ok) => verdicts.push(ok), logger });

    await until(() => verdicts.length >= 2);
    await monitor.stop();

    expect(verdicts.slice(0, 2)).toEqual([true, false]);
    const errors = lines().filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ violations: ['balance_equals_entries', 'currency_sums_to_zero'], problemCount: 2 });
    expect(String(errors[0]?.msg)).toContain('balance_equals_entries, currency_sums_to_zero');
  });

  it('when the check cannot run, then no verdict is reported and the next interval tries again', async () => {
    let calls = 0;
    const verdicts: boolean[] = [];
    const { logger, lines } = capturingLogger();
    const monitor = startInvariantMonitor({
      check: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('database unreachable')) : Promise.resolve(sound);
      },
      intervalMs: 10,
      onChecked: (ok) => verdicts.push(ok),
      logger,
    });

    await until(() => verdicts.length >= 1);
    await monitor.stop();

    expect(verdicts[0]).toBe(true);
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(lines().some((line) => line.level === 'warn')).toBe(true);
  });

  it('when stopped, then no further check starts', async () => {
    let calls = 0;
    const { logger } = capturingLogger();
    const monitor = startInvariantMonitor({ check: () => Promise.resolve((calls += 1, sound)), intervalMs: 10, onChecked: () => undefined, logger });

    await until(() => calls >= 1);
    await monitor.stop();
    const callsAtStop = calls;
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(calls).toBe(callsAtStop);
  });
});
