// `npm start`: builds the workspaces that changed since the last start (scripts/buildChanged.mjs), then runs
// the server in this process. A first start, or any change, builds; a second start with nothing changed
// goes straight to the server.
import { buildChanged, stampFileOf } from './buildChanged.mjs';

const root = new URL('..', import.meta.url).pathname;
try {
  await buildChanged(root, { stampFile: stampFileOf(root) });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
await import('../apps/server/dist/main.js');
