import { configurationFields, describeConfiguration, takeConfigurationArguments } from '../bench/configuration';
import { parseBulkArguments } from '../bench/bulk-options';
import { parseListsArguments } from '../bench/lists-options';
import { parseArguments } from '../bench/options';

describe('bench configuration', () => {
  test('when nothing is given, then the stack is configured as npm start configures it', () => {
    const { configuration, rest } = takeConfigurationArguments(['flows', '--duration', '20'], {});
    expect(configuration).toEqual({ name: 'npm-start', databaseRoles: 'on', webhooksService: 'on', webhookReceiver: 'on', logLevel: 'info' });
    expect(rest).toEqual(['flows', '--duration', '20']);
  });

  test("when npm start's own variables are set, then the npm-start configuration follows them as npm start does", () => {
    const { configuration } = takeConfigurationArguments([], { PWA_DATABASE_ROLES: 'off', PWA_WEBHOOK_RECEIVER: 'off', LOG_LEVEL: 'warn', BENCH_LOG_LEVEL: 'debug' });
    expect(configuration).toEqual({ name: 'npm-start', databaseRoles: 'off', webhooksService: 'on', webhookReceiver: 'off', logLevel: 'warn' });
  });

  test('when bench-legacy is chosen, then the stack is configured as the benchmarks configured it before', () => {
    const expected = { name: 'bench-legacy', databaseRoles: 'off', webhooksService: 'off', webhookReceiver: 'off', logLevel: 'info' };
    expect(takeConfigurationArguments(['--config', 'bench-legacy'], { PWA_DATABASE_ROLES: 'on', LOG_LEVEL: 'warn' }).configuration).toEqual(expected);
    expect(takeConfigurationArguments([], { BENCH_CONFIG: 'bench-legacy', BENCH_LOG_LEVEL: 'debug' }).configuration).toEqual({ ...expected, logLevel: 'debug' });
  });

  test('when a setting is changed by its flag, then only that setting differs from the preset, and the report says so', () => {
    const { configuration } = takeConfigurationArguments(['--database-roles', 'off'], {});
    expect(configuration).toMatchObject({ name: 'npm-start', databaseRoles: 'off', webhooksService: 'on' });
    const fields = configurationFields(configuration, { environment: 'sandbox', env: {} }).configuration;
    expect(fields).toMatchObject({ name: 'npm-start', changed_from_preset: ['databaseRoles'], database_roles: 'off', environment: 'sandbox', log_level: 'info' });
    expect(describeConfiguration(fields)).toMatch(/^Configuration: npm-start changed \(database roles off\): database roles off/);
  });

  test('when a benchmark leaves webhooks out of its stack, then its report says they were not started', () => {
    const { configuration } = takeConfigurationArguments([], {});
    expect(configurationFields(configuration, { webhooks: 'not started', env: {} }).configuration).toMatchObject({ webhooks_service: 'not started', webhook_receiver: 'not started', environment: 'sandbox' });
  });

  test('when a configuration flag is wrong, then the arguments are refused', () => {
    expect(() => takeConfigurationArguments(['--config', 'production'], {})).toThrow(/--config takes npm-start or bench-legacy/);
    expect(() => takeConfigurationArguments(['--database-roles', 'yes'], {})).toThrow(/--database-roles takes on or off/);
    expect(() => takeConfigurationArguments(['--config', 'bench-legacy', '--webhook-receiver', 'on'], {})).toThrow(/needs the webhooks service/);
  });

  test('when any benchmark is run, then its options carry the configuration and its own flags still parse', () => {
    expect(parseArguments(['flows', '--config', 'bench-legacy', '--open-loop'], {})).toMatchObject({ names: ['flows'], openLoop: true, configuration: { name: 'bench-legacy' } });
    expect(parseBulkArguments(['--bulks', '2', '--database-roles', 'off'], {})).toMatchObject({ bulks: 2, configuration: { name: 'npm-start', databaseRoles: 'off' } });
    expect(parseListsArguments(['--webhooks-service', 'off', '--webhook-receiver', 'off', '--rounds', '1'], {})).toMatchObject({ rounds: 1, configuration: { webhooksService: 'off' } });
  });
});
