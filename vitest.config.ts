import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      'packages/core',
      'packages/api',
      'packages/devchain',
      'packages/wcrelay',
      'apps/server',
      'apps/web',
      // The repository's own tools: `npm start`'s build decisions, the size check, the bench.
      {
        test: {
          name: 'scripts',
          environment: 'node',
          include: ['scripts/**/*.test.mjs', 'bench/**/*.test.mjs'],
        },
      },
    ],
  },
});
