import { parseListsArguments } from '../bench/lists-options';

describe('lists bench options', () => {
  test('when nothing is given, then a million disbursements and a million ledger entries, one connection', () => {
    expect(parseListsArguments([], {})).toEqual({ disbursements: 1_000_000, ledgerEntries: 1_000_000, durationSeconds: 8, rounds: 3, warmupSeconds: 2, connections: 1, configuration: { name: 'npm-start', databaseRoles: 'on', webhooksService: 'on', webhookReceiver: 'on', logLevel: 'info' } });
  });

  test('when flags and variables are given, then the flags win over the variables', () => {
    const options = parseListsArguments(['--disbursements', '20000', '--rounds', '2'], { BENCH_LISTS_DISBURSEMENTS: '50000', BENCH_LISTS_LEDGER_ENTRIES: '30000', BENCH_ROUNDS: '5' });
    expect(options).toMatchObject({ disbursements: 20_000, ledgerEntries: 30_000, rounds: 2 });
  });

  test('when a count is out of bounds, not whole or missing, then the arguments are refused naming the flag', () => {
    expect(() => parseListsArguments(['--disbursements', '10'], {})).toThrow(/--disbursements/);
    expect(() => parseListsArguments(['--disbursements', '6000000'], {})).toThrow(/--disbursements/);
    expect(() => parseListsArguments(['--rounds', '1.5'], {})).toThrow(/--rounds/);
    expect(() => parseListsArguments(['--duration'], {})).toThrow(/--duration needs a value/);
    expect(() => parseListsArguments([], { BENCH_LISTS_LEDGER_ENTRIES: 'many' })).toThrow(/BENCH_LISTS_LEDGER_ENTRIES/);
  });

  test('when an unknown flag or a benchmark name follows lists, then it is refused', () => {
    expect(() => parseListsArguments(['gateway'], {})).toThrow(/unknown argument "gateway"/);
  });
});
