import { z } from 'zod';
import { addressListField } from './address-list';
import { fields } from './fields';

/**
 * How a service reaches RabbitMQ, the same in every service that uses the bus: spread into its
 * config schema. AMQP_URL holds the credentials, the virtual host and the scheme (amqps:// for
 * TLS), and is a secret; AMQP_HOSTS, when set, lists the nodes of a cluster (not secret), and the
 * bus connects to the first that answers, with AMQP_URL's credentials, moving on to the next on a
 * lost connection (docs/operations.md, "RabbitMQ cluster").
 */
export const amqpConfigFields = {
  AMQP_URL: fields.amqpUrl,
  /** Comma-separated host:port of the cluster's nodes (port 5672 when left out). Unset: AMQP_URL's host alone. */
  AMQP_HOSTS: addressListField({ defaultPort: 5672, max: 16, noun: 'brokers' }),
};

export type AmqpConfig = z.output<z.ZodObject<typeof amqpConfigFields>>;
