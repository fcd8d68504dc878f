import { brokerAddressOf, brokerUrls } from '../../src/connect-with-timeout';

describe('the URLs of a cluster’s nodes (AMQP_HOSTS with AMQP_URL)', () => {
  const url = 'amqps://svc-auth:s3cr%40t@rabbit.internal:5671/pwa?frameMax=131072';

  test('when no node is listed, then AMQP_URL is the one URL', () => {
    expect(brokerUrls(url, undefined)).toEqual([url]);
    expect(brokerUrls(url, [])).toEqual([url]);
  });

  test('when nodes are listed, then each URL is AMQP_URL with the node’s host and port, keeping credentials, scheme, virtual host and query', () => {
    expect(brokerUrls(url, [{ host: 'rabbit-0.rabbit', port: 5671 }, { host: '10.0.0.7', port: 5672 }, { host: 'fd00::7', port: 5671 }])).toEqual([
      'amqps://svc-auth:s3cr%40t@rabbit-0.rabbit:5671/pwa?frameMax=131072',
      'amqps://svc-auth:s3cr%40t@10.0.0.7:5672/pwa?frameMax=131072',
      'amqps://svc-auth:s3cr%40t@[fd00::7]:5671/pwa?frameMax=131072',
    ]);
  });

  test('when a URL is shown in a log line or an error, then it is the scheme, host and port only', () => {
    expect(brokerAddressOf(url)).toBe('amqps://rabbit.internal:5671');
    expect(brokerAddressOf('amqp://guest:guest@[fd00::7]:5672')).toBe('amqp://[fd00::7]:5672');
  });
});
