/**
 * The server package's folder (`apps/server/`). This module sits one level below it wherever the server
 * runs from: `src/` (Vitest, the import recorder) and `dist/`, whose bundle keeps all its files at the top
 * (scripts/bundle.mjs), so every `import.meta.url` there is one level down as well.
 */
export const SERVER_ROOT = new URL('../', import.meta.url);
