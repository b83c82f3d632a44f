import { defineProject } from 'vitest/config';
import { reactOnPreact } from './reactOnPreact';

export default defineProject({
  // The components run on Preact in the tests too, as they do in the browser (reactOnPreact.ts).
  resolve: { conditions: ['source'], alias: reactOnPreact },
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
