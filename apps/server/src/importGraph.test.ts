import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { describeCycle, type Edge, findCycles, sourceFiles, specifiersOf } from '../test/importGraph.js';

/**
 * The server's layers, bottom to top, and what each holds (ARCHITECTURE.md draws the same). Each top-level
 * folder of `src` is one node, and so is each file at its top. A node imports only nodes of its own layer or
 * of the layers below it: an import of a higher layer is an upward arrow. Inside a layer the imports make no
 * cycle, and neither do the files: a feature that needs another's code and is needed by it has code in the
 * wrong place (move it down to where both reach it). An import counts whatever its form: static,
 * `import type`, re-export, dynamic `import()`, `require`, a `vi.mock(…)` and a `new URL(…, import.meta.url)`.
 */
const LAYERS: readonly (readonly string[])[] = [
  // The configuration: one table of environment variables, the rate limits and the code policy, parsed once.
  ['serverRoot.ts', 'config'],
  // What no feature owns: keys, the database, the chains' readers, the dev chain's loader, message
  // transports and texts, the rate limiters and the Fastify app's own machinery.
  ['crypto', 'db', 'chain', 'devchain', 'delivery', 'rateLimit', 'http'],
  // What every feature is given.
  ['appContext.ts'],
  // The server itself: health, readiness, its configuration's route, repeating tasks.
  ['system'],
  // Who is signed in (codes, sessions, users, devices, SIWE sign-in), what the owner is told, live events.
  ['notices', 'auth', 'events'],
  // The wallet's key (shares, recovery, its proofs), the account's changes, the account's settings.
  ['wallet', 'accountChanges', 'account'],
  // Money: the history, the chain watcher, the on-ramp, prices; and the development routes over them.
  ['activity', 'chainWatch', 'onramp', 'prices', 'sponsor', 'dev'],
  // The wiring: the app lists the features; main starts it.
  ['app.ts', 'main.ts'],
];

const SRC = dirname(new URL(import.meta.url).pathname);
const CONFIG = join(SRC, 'config');

/** The node of `src` a path is in: its top-level folder, or the file itself at the top; null outside `src`. */
function nodeOf(path: string): string | null {
  const inside = relative(SRC, path);
  if (inside.startsWith('..')) return null;
  return inside.split(sep)[0] ?? null;
}

/** The source file a relative import names (`./x.js` is `./x.ts`, `./x` a folder's `index.ts`). */
function resolveImport(file: string, specifier: string): string {
  const target = resolve(dirname(file), specifier);
  if (target.endsWith('.js')) return `${target.slice(0, -3)}.ts`;
  if (target.endsWith('.ts')) return target;
  return join(target, 'index.ts');
}

/** Each file of `src` and the files of `src` it imports. */
function fileImports(): Map<string, { target: string; specifier: string }[]> {
  const imports = new Map<string, { target: string; specifier: string }[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = specifiersOf(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => ({ target: resolveImport(file, specifier), specifier }));
    imports.set(file, targets);
  }
  return imports;
}

/** The node-to-node imports, one example each. */
function nodeEdges(imports: ReturnType<typeof fileImports>): Edge[] {
  const edges = new Map<string, Edge>();
  for (const [file, targets] of imports) {
    const from = nodeOf(file);
    for (const { target, specifier } of targets) {
      const to = nodeOf(target);
      if (from === null || to === null || to === from) continue;
      const key = `${from}\n${to}`;
      if (!edges.has(key)) edges.set(key, { from, to, example: `${relative(SRC, file)} → ${specifier}` });
    }
  }
  return [...edges.values()];
}

/** The places in `file`'s code (not its comments) that read `process.env`. */
function environmentReads(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  if (!text.includes('env')) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const isProcess = (expression: ts.Expression) =>
      ts.isIdentifier(expression) && expression.text === 'process';
    const readsEnv =
      (ts.isPropertyAccessExpression(node) && isProcess(node.expression) && node.name.text === 'env') ||
      (ts.isElementAccessExpression(node) &&
        isProcess(node.expression) &&
        ts.isStringLiteral(node.argumentExpression) &&
        node.argumentExpression.text === 'env');
    if (readsEnv) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${relative(SRC, file)}:${line + 1}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the server's layers", () => {
  const imports = fileImports();
  const edges = nodeEdges(imports);
  const layerOf = new Map(LAYERS.flatMap((nodes, layer) => nodes.map((node) => [node, layer] as const)));

  it('see the imports (the scan finds the app importing every feature, and type-only imports)', () => {
    expect(edges.filter((edge) => edge.from === 'app.ts').map((edge) => edge.to)).toEqual(
      expect.arrayContaining(['auth', 'wallet', 'activity', 'system', 'config']),
    );
    // appContext.ts imports types only: they count.
    expect(edges.some((edge) => edge.from === 'appContext.ts' && edge.to === 'db')).toBe(true);
  });

  it('place every folder and top-level file of src in one layer', () => {
    const nodes = [...new Set([...imports.keys()].map((file) => nodeOf(file)!))]
      .filter((node) => !node.endsWith('.test.ts'))
      .sort();
    expect(nodes.filter((node) => !layerOf.has(node))).toEqual([]);
    expect([...layerOf.keys()].filter((node) => !nodes.includes(node))).toEqual([]);
  });

  it('import no higher layer', () => {
    const upward = edges
      .filter((edge) => (layerOf.get(edge.to) ?? -1) > (layerOf.get(edge.from) ?? Infinity))
      .map((edge) => `${edge.from} imports ${edge.to} (${edge.example})`);
    expect(upward).toEqual([]);
  });

  it('import each other in no cycle (folders and top-level files)', () => {
    expect(findCycles(edges).map(describeCycle)).toEqual([]);
  });

  it('hold no cycle of files', () => {
    const fileEdges: Edge[] = [...imports].flatMap(([file, targets]) =>
      targets.map(({ target, specifier }) => ({
        from: relative(SRC, file),
        to: relative(SRC, target),
        example: `${relative(SRC, file)} → ${specifier}`,
      })),
    );
    expect(findCycles(fileEdges).map(describeCycle)).toEqual([]);
  });

  it('read the environment only in config/ (every other module is given the configuration)', () => {
    const reads = sourceFiles(SRC)
      .filter((file) => !file.startsWith(`${CONFIG}${sep}`))
      .flatMap(environmentReads);
    expect(reads).toEqual([]);
    // The scan sees a read: config/ reads it.
    expect(sourceFiles(CONFIG).flatMap(environmentReads).length).toBeGreaterThan(0);
  });
});
