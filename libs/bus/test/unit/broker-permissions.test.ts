import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brokerPermissionsOf } from '../../src/broker-permissions';

describe('a service’s RabbitMQ permissions', () => {
  const webhooks = brokerPermissionsOf('webhooks', 'pwa.events');

  test('when computed for the webhooks service, then they are what docs/operations.md tells operators to set', () => {
    const manual = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'operations.md'), 'utf8');
    for (const expression of [webhooks.configure, webhooks.write, webhooks.read]) expect(manual).toContain(`'${expression}'`);
  });

  test.each([
    ['the event exchange', 'pwa.events', [true, true, true]],
    ['the dead-letter exchange', 'pwa.events.dlx', [true, true, true]],
    ['the dead-letter queue', 'pwa.events.dead-letter', [true, true, false]],
    ['its own queue', 'pwa.events.webhooks.partner-events', [true, true, true]],
    ['another service’s queue', 'pwa.events.disbursements.wallet-events', [false, false, false]],
    ['a name that only starts like its own', 'pwa.events.webhooksx.queue', [false, false, false]],
    ['another exchange', 'pwa-events', [false, false, false]],
  ])('when the resource is %s (%s), then configure, write and read are %j', (_case, name, expected) => {
    expect([webhooks.configure, webhooks.write, webhooks.read].map((expression) => new RegExp(expression).test(name))).toEqual(expected);
  });

  test('when the service name is not a plain name, then it is refused rather than put into an expression', () => {
    expect(() => brokerPermissionsOf('web.*', 'pwa.events')).toThrow('lower-case');
  });
});
