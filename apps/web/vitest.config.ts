import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    name: 'web',
    environment: 'node',
    include: ['src/**/*.test.ts', 'plugins/**/*.test.ts'],
    // As the server's: the key tests run scrypt and start the real server (a database, migrations) for
    // each test, which takes seconds when the machine is busy.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
