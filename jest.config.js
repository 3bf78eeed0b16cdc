// Three tiers: unit tests beside the code; medium suites (test/medium) of services with their real
// repositories on a real PostgreSQL, without HTTP; e2e suites that boot the whole app.
const tsJest = ['ts-jest', { tsconfig: 'tsconfig.json' }];

module.exports = {
  // e2e suites boot whole apps and processes; a unit test never comes near this.
  testTimeout: 120000,
  // Suites wait on timers, sockets and the database more than on the CPU: three workers take a
  // 2-core machine's e2e pass from 4.5 to 2.5 minutes. Every suite has a database of its own.
  maxWorkers: 3,
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
      displayName: 'medium',
      testEnvironment: 'node',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/medium/**/*.medium-spec.ts'],
      transform: { '^.+\\.ts$': tsJest },
      globalSetup: '<rootDir>/test/global-setup.mjs',
      globalTeardown: '<rootDir>/test/global-teardown.mjs',
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
