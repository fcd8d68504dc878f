// Two projects: `unit` (pure domain code, no servers) and `integration` (real Postgres, RabbitMQ
// and Redis; the e2e suites drive the built stack over HTTPS). `npm test` runs both.
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
module.exports = {
  testTimeout: 60_000,
  // Jest's default is one worker per core but one, so a 2-core machine ran every file in turn while
  // most of an end-to-end file's time is waiting on its stack's processes. Each file is isolated by
  // its own database, bus exchange, Redis prefix and free ports (and the fault tests by servers of
  // their own), so two files at once share nothing but the machine.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{libs,services}/*/test/unit/**/*.test.ts', '<rootDir>/scripts/test/**/*.test.ts', '<rootDir>/sdk/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/deploy/**/*.test.ts', '<rootDir>/sdk/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
      slowTestThreshold: 30,
    },
  ],
};
