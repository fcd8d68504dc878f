import { ConfigError, amqpConfigFields, loadConfig, z } from '../../src';

/** A bus service's schema as the services write it: the AMQP fragment spread into it. */
const schema = z.object({ ...amqpConfigFields });

describe('AMQP_HOSTS: the nodes of a RabbitMQ cluster', () => {
  test('when it is unset or blank, then AMQP_URL names the one broker', () => {
    expect(loadConfig(schema, {}).AMQP_HOSTS).toBeUndefined();
    expect(loadConfig(schema, { AMQP_HOSTS: ' ' }).AMQP_HOSTS).toBeUndefined();
  });

  test('when it lists nodes, then each is a host and port, 5672 when left out, IPv6 in brackets', () => {
    expect(loadConfig(schema, { AMQP_HOSTS: 'rabbit-0.rabbit:5671, rabbit-1.rabbit ,[fd00::7]:5673' }).AMQP_HOSTS).toEqual([
      { host: 'rabbit-0.rabbit', port: 5671 },
      { host: 'rabbit-1.rabbit', port: 5672 },
      { host: 'fd00::7', port: 5673 },
    ]);
  });

  test.each([
    ['a URL instead of host:port', 'amqp://rabbit-0:5672', 'not host:port'],
    ['a duplicate', 'rabbit-0,rabbit-0:5672', 'listed twice'],
    ['an empty entry', 'rabbit-0,,rabbit-1', 'empty entry'],
    ['a port out of range', 'rabbit-0:99999', 'port outside'],
  ])('when it has %s, then the service refuses to boot naming AMQP_HOSTS and what is wrong', (_case, value, problem) => {
    expect(() => loadConfig(schema, { AMQP_HOSTS: value })).toThrow(ConfigError);
    expect(() => loadConfig(schema, { AMQP_HOSTS: value })).toThrow(new RegExp(`AMQP_HOSTS: comma-separated host:port of the brokers: .*${problem}`));
  });

  test('when a URL with its credentials is pasted into it, then the refusal says so without repeating the password', () => {
    let message = '';
    try {
      loadConfig(schema, { AMQP_HOSTS: 'rabbit-0:5672,amqp://svc:hunter2-password@rabbit-1:5672' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('AMQP_HOSTS: comma-separated host:port of the brokers: an entry is a URL or holds credentials');
    expect(message).not.toContain('hunter2-password');
  });

  test('when the list is longer than a cluster could be, then it is refused', () => {
    const nodes = Array.from({ length: 17 }, (_unused, index) => `rabbit-${index}`).join(',');
    expect(() => loadConfig(schema, { AMQP_HOSTS: nodes })).toThrow(/at most 16 brokers/);
  });
});
