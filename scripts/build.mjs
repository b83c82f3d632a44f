// `npm run build`: builds every workspace that has a build script, in the root's order (dependencies
// first), and records what it built from (scripts/buildChanged.mjs), so the `npm start` that follows builds
// nothing.
import { fileURLToPath } from 'node:url';
import { buildChanged, stampFileOf } from './buildChanged.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
try {
  await buildChanged(root, { stampFile: stampFileOf(root), all: true });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
