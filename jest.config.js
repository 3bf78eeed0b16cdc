// Two tiers: unit tests beside the code, e2e suites that boot the whole app on a real PostgreSQL.
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json' }];

module.exports = {
  // e2e suites boot whole apps and processes; a unit test never comes near this.
  testTimeout: 120000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      rootDir: __dirname,
      // Beside the code, and the suites under test/ that need no database or app (*.spec.ts, not *.e2e-spec.ts).
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      globalSetup: '<rootDir>/test/global-setup.mjs',
      globalTeardown: '<rootDir>/test/global-teardown.mjs',
    },
  ],
};
