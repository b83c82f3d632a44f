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
    ],
  },
});
