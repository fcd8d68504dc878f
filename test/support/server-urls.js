// Server URLs for tests: from the environment, defaulting to the local servers.
'use strict';
function serverUrls() {
  return {
    postgres: process.env.TEST_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    amqp: process.env.TEST_AMQP_URL || process.env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
    redis: process.env.TEST_REDIS_URL || process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  };
}
module.exports = { serverUrls };
