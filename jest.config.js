// Two projects: `unit` (pure domain code, no servers) and `integration` (real Postgres, RabbitMQ
// and Redis; the e2e suites drive the built stack over HTTPS). `npm test` runs both.
'use strict';
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];
const shared = {
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@pwa/([a-z-]+)$': '<rootDir>/libs/$1/src' },
  testEnvironment: 'node',
  rootDir: __dirname,
};
module.exports = {
  testTimeout: 60_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{libs,services}/*/test/unit/**/*.test.ts', '<rootDir>/scripts/test/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/{libs,services}/*/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts', '<rootDir>/test/deploy/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.js',
      globalTeardown: '<rootDir>/test/support/global-teardown.js',
      slowTestThreshold: 30,
    },
  ],
};
