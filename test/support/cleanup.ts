import { connect as connectAmqp } from 'amqplib';
import { durableQueueNames } from '@pwa/bus';
import { Redis } from 'ioredis';

/** Deletes every key under a test run's prefix, so runs leave nothing behind in the shared Redis. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** The bus library declares the exchange, its dead-letter exchange and queue, and the services their durable queues; a test run leaves none behind. */
export async function deleteExchange(amqpUrl: string, exchange: string): Promise<void> {
  const connection = await connectAmqp(amqpUrl);
  try {
    const channel = await connection.createChannel();
    for (const queue of durableQueueNames(exchange)) await channel.deleteQueue(queue);
    await channel.deleteExchange(`${exchange}.dlx`);
    await channel.deleteExchange(exchange);
    await channel.close();
  } finally {
    await connection.close();
  }
}

