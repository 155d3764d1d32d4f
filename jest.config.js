// ESM project: Jest runs under `node --experimental-vm-modules` with ts-jest's ESM mode.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  // The slowest files start first (test/support/slow-files.txt), so none is left running alone at the end.
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // One PostgreSQL cluster for the run, started by the first test that needs one (tools/postgres.ts).
  globalSetup: '<rootDir>/test/support/postgres-setup.js',
  globalTeardown: '<rootDir>/test/support/postgres-teardown.js',
  // Generous: an e2e case starts processes and waits on them, and on a busy 2-core machine that takes a while; a
  // test that hangs still fails, only later.
  testTimeout: 60000,
};
