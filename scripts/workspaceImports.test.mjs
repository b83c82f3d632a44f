import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A workspace depends on another only through its package name (`@dial/server/testing`, `@dial/core`): what
 * one takes from another is in the other's `exports`, and no file reaches into another's folders by a
 * relative path (`../../server/src/…`). An import counts whatever its form: static, `import type`,
 * re-export, dynamic `import()`, `require`, `vi.mock(…)`.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKSPACES = [
  ...['packages', 'apps'].flatMap((parent) =>
    readdirSync(join(ROOT, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name)),
  ),
  'e2e',
  'scripts',
  'bench',
];
/** Folders of built output, installs and test reports: no source of a workspace. */
const SKIPPED = new Set([
  'node_modules',
  'dist',
  'test-results',
  'playwright-report',
  'artifacts',
  'coverage',
]);

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

function specifiersOf(text) {
  const found = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  for (const match of text.matchAll(/vi\.mock\(\s*['"]([^'"]+)['"]/g)) found.push(match[1]);
  return found;
}

/** Each import of a file outside the importing file's own workspace, as `file → specifier`. */
function crossings(workspace) {
  const home = join(ROOT, workspace);
  return sourceFiles(home).flatMap((file) =>
    specifiersOf(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .filter((specifier) => {
        const inside = relative(home, resolve(dirname(file), specifier));
        return inside === '..' || inside.startsWith(`..${sep}`);
      })
      .map((specifier) => `${relative(ROOT, file)} → ${specifier}`),
  );
}

describe('the workspaces', () => {
  it('are all seen (the packages, the apps, e2e, scripts and bench)', () => {
    expect(WORKSPACES).toEqual(
      expect.arrayContaining(['packages/core', 'packages/api', 'apps/server', 'apps/web', 'e2e', 'bench']),
    );
  });

  it('see their imports (the scan finds relative imports inside a workspace)', () => {
    const server = sourceFiles(join(ROOT, 'apps/server/src'));
    expect(server.some((file) => specifiersOf(readFileSync(file, 'utf8')).includes('./app.js'))).toBe(true);
  });

  it.each(WORKSPACES)('%s imports no other workspace’s files by a relative path', (workspace) => {
    expect(crossings(workspace)).toEqual([]);
  });
});
