// Rewrites the README's configuration table from the server's table of variables
// (apps/server/src/config/variables.ts): `npm run docs:config`. apps/server/test/configDocs.test.ts fails
// while the README is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { runnerImport } from 'vite';

const readmeUrl = new URL('../README.md', import.meta.url);
// Vite's module runner loads the TypeScript source as the server's tests do, without a build.
const { module } = await runnerImport(
  new URL('../apps/server/src/config/configTable.ts', import.meta.url).pathname,
  {
    configFile: false,
    logLevel: 'warn',
    // The shared library from its source too (its `source` export condition), as the tests load it.
    environments: { inline: { resolve: { noExternal: ['@dial/core'], conditions: ['source'] } } },
  },
);
const before = readFileSync(readmeUrl, 'utf8');
const after = module.writeConfigTable(before);
if (after === before) {
  console.log('README.md: the configuration table is up to date.');
} else {
  writeFileSync(readmeUrl, after);
  console.log('README.md: the configuration table was rewritten.');
}
