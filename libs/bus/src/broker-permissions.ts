/**
 * What one service's RabbitMQ user needs, as `rabbitmqctl set_permissions` takes it (three
 * regular expressions over exchange and queue names): declare the event exchange, the dead-letter
 * exchange and queue, and its own queues (`<exchange>.<service>.…`, which is how every service
 * names them); publish to the event exchange; dead-letter into the dead-letter exchange; bind and
 * consume its own queues. Nothing of another
 * service's queues: a leaked credential reads no one else's events.
 */
export interface BrokerPermissions {
  configure: string;
  write: string;
  read: string;
}

const serviceName = /^[a-z][a-z0-9-]{0,62}$/;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function brokerPermissionsOf(service: string, exchange: string): BrokerPermissions {
  if (!serviceName.test(service)) throw new Error('a service name is lower-case letters, digits and "-"');
  const base = escapeRegex(exchange);
  const own = `\\.${escapeRegex(service)}\\..+`;
  return {
    // The exchanges and the dead-letter queue (declared on every connect), and its own queues.
    configure: `^${base}(\\.dlx|\\.dead-letter|${own})?$`,
    // Publishing to the event exchange; binding the dead-letter queue and its own queues; naming the
    // dead-letter exchange as its queues' x-dead-letter-exchange (RabbitMQ asks write on it).
    write: `^${base}(\\.dlx|\\.dead-letter|${own})?$`,
    // Binding from the two exchanges; consuming its own queues.
    read: `^${base}(\\.dlx|${own})?$`,
  };
}
