import { deadLetterNames, deliveryLimit } from '@pwa/bus';
import { queueOptions } from '../../src/topology';

describe('topology', () => {
  test('when naming dead-letter resources, then they derive from the exchange', () => {
    expect(deadLetterNames('pwa.events')).toEqual({ exchange: 'pwa.events.dlx', queue: 'pwa.events.dead-letter' });
  });

  test('when a queue is durable, then it is a quorum queue with a dead-letter exchange and a delivery limit', () => {
    expect(queueOptions('durable', 'pwa.events')).toEqual({
      durable: true,
      arguments: { 'x-queue-type': 'quorum', 'x-dead-letter-exchange': 'pwa.events.dlx', 'x-delivery-limit': deliveryLimit },
    });
  });

  test('when a queue is ephemeral, then it is exclusive, auto-deleted and still dead-letters', () => {
    expect(queueOptions('ephemeral', 'pwa.events')).toEqual({
      durable: false,
      exclusive: true,
      autoDelete: true,
      arguments: { 'x-dead-letter-exchange': 'pwa.events.dlx' },
    });
  });
});
