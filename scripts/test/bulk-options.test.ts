import { parseBulkArguments } from '../bench/bulk-options';

describe('bulk bench options', () => {
  test('when nothing is given, then 10 bulks of 1,000 items, singles on 32 connections for 10 s, 64 users, reference and hot row on', () => {
    expect(parseBulkArguments([], {})).toEqual({ bulks: 10, items: 1_000, durationSeconds: 10, connections: 32, warmupSeconds: 3, users: 64, reference: true, hotRow: true, pgWaits: false, configuration: { name: 'npm-start', databaseRoles: 'on', webhooksService: 'on', webhookReceiver: 'on', logLevel: 'info' } });
  });

  test('when flags and variables are given, then the flags win over the variables', () => {
    const options = parseBulkArguments(['--bulks', '2', '--items', '200', '--no-hot-row'], { BENCH_BULK_BULKS: '5', BENCH_BULK_ITEMS: '500', BENCH_USERS: '8', BENCH_REFERENCE: 'off' });
    expect(options).toMatchObject({ bulks: 2, items: 200, users: 8, reference: false, hotRow: false, pgWaits: false });
    expect(parseBulkArguments(['--pg-waits'], {}).pgWaits).toBe(true);
    expect(parseBulkArguments([], { BENCH_PG_WAITS: 'on' }).pgWaits).toBe(true);
  });

  test('when a count is out of bounds, not whole or missing, then the arguments are refused naming the flag', () => {
    expect(() => parseBulkArguments(['--items', '1001'], {})).toThrow(/--items/);
    expect(() => parseBulkArguments(['--items', '0'], {})).toThrow(/--items/);
    expect(() => parseBulkArguments(['--bulks', '1.5'], {})).toThrow(/--bulks/);
    expect(() => parseBulkArguments(['--duration'], {})).toThrow(/--duration needs a value/);
    expect(() => parseBulkArguments([], { BENCH_BULK_ITEMS: 'many' })).toThrow(/BENCH_BULK_ITEMS/);
  });

  test('when an unknown flag or a benchmark name follows bulk, then it is refused', () => {
    expect(() => parseBulkArguments(['flows'], {})).toThrow(/unknown argument "flows"/);
  });
});
