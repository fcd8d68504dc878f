import { Writable } from 'node:stream';
import { createLogger } from '@pwa/logging';
import { startPeriodicTask, type PeriodicTask } from '../../src/periodic-task';

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { logger: createLogger({ service: 'runtime-test', level: 'info', destination }), lines: () => chunks.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition() && Date.now() < deadline) await sleep(5);
}

/** A run that stays in flight until released, recording how many runs overlap. */
function gatedRuns(): { run: () => Promise<number>; release: () => void; started: () => number; overlapMax: () => number } {
  let started = 0;
  let active = 0;
  let overlapMax = 0;
  let releases: (() => void)[] = [];
  return {
    run: async () => {
      started += 1;
      active += 1;
      overlapMax = Math.max(overlapMax, active);
      await new Promise<void>((resolve) => releases.push(resolve));
      active -= 1;
      return started;
    },
    release: () => {
      for (const release of releases) release();
      releases = [];
    },
    started: () => started,
    overlapMax: () => overlapMax,
  };
}

describe('startPeriodicTask', () => {
  const tasks: PeriodicTask<unknown>[] = [];
  afterEach(async () => {
    await Promise.all(tasks.splice(0).map((task) => task.stop()));
  });

  it('when started without a first run delay, then the first run waits one interval and runs repeat', async () => {
    let runs = 0;
    const startedAt = Date.now();
    let firstRunAfterMs = -1;
    tasks.push(startPeriodicTask({ name: 'counting', intervalMs: 40, run: () => Promise.resolve((firstRunAfterMs < 0 ? (firstRunAfterMs = Date.now() - startedAt) : 0, (runs += 1))), logger: capturingLogger().logger }));

    await until(() => runs >= 3);

    expect(runs).toBeGreaterThanOrEqual(3);
    expect(firstRunAfterMs).toBeGreaterThanOrEqual(35);
  });

  it('when a first run delay of 0 is given, then the first run starts at once', async () => {
    let runs = 0;
    tasks.push(startPeriodicTask({ name: 'eager', intervalMs: 60_000, firstRunDelayMs: 0, run: () => Promise.resolve((runs += 1)), logger: capturingLogger().logger }));

    await until(() => runs >= 1);

    expect(runs).toBe(1);
  });

  it('when a run outlasts the interval, then the next run waits for it (no overlap)', async () => {
    const gate = gatedRuns();
    const task = startPeriodicTask({ name: 'slow', intervalMs: 5, firstRunDelayMs: 0, run: gate.run, logger: capturingLogger().logger });

    await until(() => gate.started() >= 1);
    await sleep(50);
    expect(gate.started()).toBe(1);
    task.wake();
    void task.runNow();
    await sleep(20);
    expect(gate.started()).toBe(1);
    gate.release();
    await until(() => gate.started() >= 2);
    gate.release();
    await until(() => gate.started() >= 3);
    const stopping = task.stop();
    gate.release();
    await stopping;

    expect(gate.overlapMax()).toBe(1);
  });

  it('when runs fail, then each failure is logged and counted and the loop goes on', async () => {
    let runs = 0;
    const { logger, lines } = capturingLogger();
    const task = startPeriodicTask({
      name: 'flaky',
      intervalMs: 5,
      firstRunDelayMs: 0,
      run: () => ((runs += 1) <= 2 ? Promise.reject(new Error(`database unreachable ${runs}`)) : Promise.resolve()),
      logger,
    });
    tasks.push(task);

    await until(() => runs >= 4);

    expect(task.failedRunCount()).toBe(2);
    const warnings = lines().filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ task: 'flaky', msg: 'periodic task failed; it runs again at the next tick', err: { message: 'database unreachable 1' } });
  });

  it('when a failure log is given, then failures are logged at its level with its message', async () => {
    const { logger, lines } = capturingLogger();
    const task = startPeriodicTask({ name: 'sweep', intervalMs: 60_000, run: () => Promise.reject(new Error('boom')), logger, failureLog: { level: 'error', message: 'sweep failed' } });
    tasks.push(task);

    await expect(task.runNow()).rejects.toThrow('boom');

    expect(lines().filter((line) => line.level === 'error').map((line) => line.msg)).toEqual(['sweep failed']);
    expect(task.failedRunCount()).toBe(1);
  });

  it('when runNow is called, then it runs at once (not after the interval) and resolves with the run result', async () => {
    let runs = 0;
    const task = startPeriodicTask({ name: 'on-demand', intervalMs: 60_000, run: () => Promise.resolve((runs += 1)), logger: capturingLogger().logger });
    tasks.push(task);

    expect(await task.runNow()).toBe(1);
    expect(await task.runNow()).toBe(2);
  });

  it('when stopped during a run, then stop waits for that run and no further run starts', async () => {
    const gate = gatedRuns();
    const task = startPeriodicTask({ name: 'stopping', intervalMs: 5, firstRunDelayMs: 0, run: gate.run, logger: capturingLogger().logger });
    await until(() => gate.started() >= 1);
    const queued = task.runNow();

    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await sleep(20);
    expect(stopped).toBe(false);
    gate.release();
    await stopping;

    expect(stopped).toBe(true);
    expect(await queued).toBeUndefined();
    await sleep(30);
    expect(gate.started()).toBe(1);
    expect(await task.runNow()).toBeUndefined();
  });

  it('when stopped between runs, then the pending timer is cancelled', async () => {
    let runs = 0;
    const task = startPeriodicTask({ name: 'idle', intervalMs: 20, run: () => Promise.resolve((runs += 1)), logger: capturingLogger().logger });

    await task.stop();
    await sleep(50);

    expect(runs).toBe(0);
  });
});
