import { defineProject } from 'vitest/config';

export default defineProject({
  // The tests' local chain (@dial/devchain) from its TypeScript source, as the server's and web's tests do.
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: { name: 'core', environment: 'node', include: ['src/**/*.test.ts'] },
});
