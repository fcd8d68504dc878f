import { parseArguments } from '../bench/options';

describe('bench options', () => {
  test('when the open-loop flags are given, then the rates and the mode are read', () => {
    const options = parseArguments(['flows', '--open-loop', '--rates', '40,80', '--duration', '20'], {});
    expect(options).toMatchObject({ names: ['flows'], openLoop: true, rates: [40, 80], durationSeconds: 20 });
  });

  test('when nothing is given, then every benchmark runs with the defaults', () => {
    const options = parseArguments([], {});
    expect(options).toMatchObject({ names: ['gateway', 'quote', 'flows', 'webhooks', 'reference'], openLoop: false, rates: [40, 80], connections: 32, rounds: 2 });
  });

  test('when a variable and a flag disagree, then the flag wins', () => {
    expect(parseArguments(['--rounds', '3'], { BENCH_ROUNDS: '5', BENCH_OPEN_LOOP: 'on' })).toMatchObject({ rounds: 3, openLoop: true });
  });

  test('when a rate is not a positive number, then the arguments are refused', () => {
    expect(() => parseArguments(['--rates', '40,x'], {})).toThrow(/--rates/);
    expect(() => parseArguments(['--bogus'], {})).toThrow(/unknown argument/);
  });
});
