// Three projects: `unit` (pure domain code, no servers), `integration` (real Postgres, RabbitMQ
// and Redis; the e2e suites drive the built stack over HTTPS) and `alone` (the fault and drain
// tests, run one at a time after the others). `npm test` runs all three.
'use strict';
const os = require('node:os');
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const shared = {
  transform: { '^.+\\.ts$': swc },
  // The SDK's files import each other with .js (its ESM build needs it); jest reads the .ts beside them.
  moduleNameMapper: { '^@pwa/runtime/operator-cli$': '<rootDir>/libs/runtime/src/operator-cli', '^@pwa/([a-z-]+)$': '<rootDir>/libs/$1/src', '^@partner-wallet/sdk$': '<rootDir>/sdk/src', '^(\\.{1,2}/.*)\\.js$': '$1' },
  testEnvironment: 'node',
  rootDir: __dirname,
};
const integration = {
  ...shared,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  slowTestThreshold: 30,
};
/**
 * The tests that judge timing: the fault and drain tests (readiness and timing under a fault) and
 * the open-loop load generator's schedule (flows start within 100 ms of their plan). They run one
 * at a time, alone (see below).
 */
const aloneFiles = [
  '/test/e2e/fault-postgres-restart.test.ts',
  '/test/e2e/fault-rabbitmq-outage.test.ts',
  '/test/e2e/fault-redis-outage.test.ts',
  '/test/e2e/graceful-shutdown.test.ts',
  '/scripts/test/open-loop.test.ts',
];
module.exports = {
  testTimeout: 60_000,
  // Jest's default is one worker per core but one, so a 2-core machine ran every file in turn while
  // most of an end-to-end file's time is waiting on its stacks' processes. Each file is isolated by
  // its own database, bus exchange, Redis prefix and free ports (and the fault tests by servers of
  // their own), so two files at once share nothing but the machine.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{libs,services}/*/test/unit/**/*.test.ts', '<rootDir>/scripts/test/**/*.test.ts', '<rootDir>/sdk/test/unit/**/*.test.ts', '<rootDir>/services/backoffice/web/test/**/*.test.ts', '<rootDir>/services/dashboard/web/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...aloneFiles],
    },
    {
      ...integration,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/deploy/**/*.test.ts', '<rootDir>/sdk/test/integration/**/*.test.ts', '<rootDir>/services/*/test/browser/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...aloneFiles],
    },
    // `npm test` runs this project after the others with --runInBand: these files sample every
    // process's /readyz each 250 ms with a 1 s deadline, or time a drain, under a fault, and a
    // neighbour file starting its stack on the same two cores could make a probe miss its second.
    { ...integration, displayName: 'alone', testMatch: aloneFiles.map((file) => `<rootDir>${file}`) },
  ],
};
