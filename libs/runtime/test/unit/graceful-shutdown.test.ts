import { flushAndStopRelay, runShutdownSequence, stopInOrder, type ShutdownStep } from '../../src/graceful-shutdown';

function recordingStep(name: string, log: string[], work: () => Promise<void> = () => Promise.resolve()): ShutdownStep {
  return {
    name,
    run: async () => {
      log.push(`start ${name}`);
      await work();
      log.push(`end ${name}`);
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('runShutdownSequence', () => {
  it('when steps are given in order, then each starts after the previous one ended', async () => {
    const log: string[] = [];
    const report = await runShutdownSequence([
      recordingStep('listener', log, () => sleep(20)),
      recordingStep('relay', log),
      recordingStep('pool', log),
    ]);
    expect(report.outcome).toBe('stopped');
    expect(log).toEqual(['start listener', 'end listener', 'start relay', 'end relay', 'start pool', 'end pool']);
  });

  it('when a group is given, then its steps run together and the next entry waits for all of them', async () => {
    const log: string[] = [];
    const report = await runShutdownSequence([
      [recordingStep('listener', log, () => sleep(30)), recordingStep('worker', log, () => sleep(5))],
      recordingStep('pool', log),
    ]);
    expect(report.outcome).toBe('stopped');
    expect(log.slice(0, 2).sort()).toEqual(['start listener', 'start worker']);
    expect(log.slice(2)).toEqual(['end worker', 'end listener', 'start pool', 'end pool']);
  });

  it('when a step throws, then the later steps still run and the report names the failed one', async () => {
    const log: string[] = [];
    const report = await runShutdownSequence([
      recordingStep('listener', log),
      { name: 'relay', run: () => Promise.reject(new Error('broker gone')) },
      [{ name: 'sync thrower', run: () => { throw new Error('boom'); } }, recordingStep('worker', log)],
      recordingStep('pool', log),
    ]);
    expect(report.outcome).toBe('failed');
    expect(report.failedSteps.sort()).toEqual(['relay', 'sync thrower']);
    expect(log).toEqual(['start listener', 'end listener', 'start worker', 'end worker', 'start pool', 'end pool']);
  });

  it('when the deadline passes, then it answers timed_out at the deadline, names the unfinished steps and starts no further step', async () => {
    const log: string[] = [];
    const startedAt = Date.now();
    const report = await runShutdownSequence(
      [recordingStep('listener', log), recordingStep('stuck handler', log, () => sleep(500)), recordingStep('pool', log)],
      { timeoutMs: 50 },
    );
    expect(report.outcome).toBe('timed_out');
    expect(Date.now() - startedAt).toBeLessThan(400);
    expect(report.unfinishedSteps).toEqual(['stuck handler', 'pool']);
    await sleep(550);
    expect(log).not.toContain('start pool');
  });

  it('when every step is quick, then the deadline timer does not hold the result back', async () => {
    const report = await runShutdownSequence([{ name: 'quick', run: () => undefined }], { timeoutMs: 60_000 });
    expect(report).toMatchObject({ outcome: 'stopped', failedSteps: [], unfinishedSteps: [] });
    expect(report.elapsedMs).toBeLessThan(1_000);
  });
});

describe('stopInOrder', () => {
  it('when a step fails, then the stop rejects naming it after running the rest', async () => {
    const log: string[] = [];
    const stop = stopInOrder([{ name: 'relay', run: () => Promise.reject(new Error('x')) }, recordingStep('pool', log)]);
    await expect(stop()).rejects.toThrow('relay');
    expect(log).toEqual(['start pool', 'end pool']);
  });
});

describe('flushAndStopRelay', () => {
  it('when the outbox has rows, then it publishes batches until one is empty and then stops the relay', async () => {
    const batches = [100, 100, 3, 0];
    const calls: string[] = [];
    await flushAndStopRelay({
      flushNow: () => {
        calls.push('flush');
        return Promise.resolve(batches.shift() ?? 0);
      },
      stop: () => {
        calls.push('stop');
        return Promise.resolve();
      },
    });
    expect(calls).toEqual(['flush', 'flush', 'flush', 'flush', 'stop']);
  });

  it('when a flush fails, then the relay is still stopped', async () => {
    const stop = jest.fn(() => Promise.resolve());
    await expect(flushAndStopRelay({ flushNow: () => Promise.reject(new Error('broker down')), stop })).rejects.toThrow('broker down');
    expect(stop).toHaveBeenCalledTimes(1);
  });

  it('when the outbox never empties, then it stops after a bounded number of passes', async () => {
    const flushNow = jest.fn(() => Promise.resolve(100));
    await flushAndStopRelay({ flushNow, stop: () => Promise.resolve() });
    expect(flushNow.mock.calls.length).toBeLessThanOrEqual(20);
  });
});
