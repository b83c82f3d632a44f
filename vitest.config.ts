import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/core', 'packages/api', 'packages/devchain', 'apps/server', 'apps/web'],
  },
});
