// `npm start`: builds the workspaces that changed since the last start (scripts/buildChanged.mjs), then runs
// the server in this process. A first start, or any change, builds; a second start with nothing changed
// goes straight to the server.
import { fileURLToPath } from 'node:url';
import { buildChanged, stampFileOf } from './buildChanged.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
try {
  const built = await buildChanged(root, { stampFile: stampFileOf(root) });
  if (built.length === 0) console.log('Nothing changed since the last build: starting.');
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
await import('@dial/server');
