import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describeCycle, type Edge, findCycles, sourceFiles, specifiersOf } from '@dial/server/import-graph';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web app's folders and which may import which. Each top-level folder of `src` is one node; a file at
 * the top of `src` (App.tsx, main.tsx) is the app itself. An import counts whatever its form: static,
 * `import type`, re-export, dynamic `import()` (a lazy chunk is still a dependency), a worker's
 * `new URL(…, import.meta.url)` and a test's `vi.mock(…)`.
 *
 * - No cycle between folders: a feature that needs another's code and is needed by it has code in the
 *   wrong place (move it down to a folder both can use).
 * - `api/` (the HTTP client and the API's shapes) imports no other folder.
 * - `keys/` (the wallet's key shares, their storage, recovery's cryptography) imports only `api/`: the
 *   screens use it, never the other way round.
 * - `connect/` (the person's own wallet apps: discovery, Sign-In with Ethereum, sending through them)
 *   imports only `api/` and `ui/`: sign-in and the wallet screens use it.
 *
 * And the sign-in form's first load (main.tsx and what it imports statically) leaves the phone library
 * (libphonenumber-js, and every `@dial/core` function that uses it) out: the form is usable before it, and
 * sign-in/loadPhoneLibrary.ts loads it once the form shows. `npm run size` checks the same in the build.
 * It leaves the recovery password's strength check out too (zxcvbn and its dictionaries, some 800 KiB sent):
 * only recovery/passwordStrength.ts imports it, run by the worker the recovery setup starts.
 */
const MAY_IMPORT_ONLY: Record<string, readonly string[]> = {
  api: [],
  keys: ['api'],
  connect: ['api', 'ui'],
};

const SRC = dirname(new URL(import.meta.url).pathname);
const CORE_SRC = resolve(SRC, '../../../packages/core/src');
const APP = '(app)';

/** The folder of `src` a path is in, `(app)` for files at its top, or null outside `src`. */
function folderOf(path: string): string | null {
  const inside = relative(SRC, path);
  if (inside.startsWith('..')) return null;
  const parts = inside.split(sep);
  return parts.length === 1 ? APP : (parts[0] ?? null);
}

/** The folder-to-folder imports of `src`, one example each. */
function folderEdges(): Edge[] {
  const edges = new Map<string, Edge>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    if (from === null) continue;
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      // Packages (`@dial/core`, `viem`) are no folder of the app.
      if (!specifier.startsWith('.')) continue;
      const to = folderOf(resolve(dirname(file), specifier));
      if (to === null || to === from) continue;
      const key = `${from}\n${to}`;
      if (!edges.has(key)) {
        edges.set(key, { from, to, example: `${relative(SRC, file)} → ${specifier}` });
      }
    }
  }
  return [...edges.values()];
}

/**
 * Imports of the API contract that would put its code (TypeBox schemas) into the bundle: each
 * `import`/`export … from '@dial/api'` must be type-only, as a whole or name by name. (The client runs
 * `@dial/api/endpoints`, each route's method and URL, which holds no schema.)
 */
function contractValueImports(): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('@dial/api')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const isImport = ts.isImportDeclaration(statement);
      if (!isImport && !ts.isExportDeclaration(statement)) continue;
      const specifier = statement.moduleSpecifier;
      if (specifier === undefined || !ts.isStringLiteral(specifier) || specifier.text !== '@dial/api')
        continue;
      if (typeOnly(statement)) continue;
      found.push(`${relative(SRC, file)}: ${statement.getText(source).split('\n')[0]}`);
    }
  }
  return found;
}

function typeOnly(statement: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(statement)) {
    if (statement.isTypeOnly) return true;
    const clause = statement.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = statement.importClause;
  if (clause === undefined) return false; // `import '@dial/api'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name !== undefined) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.every((e) => e.isTypeOnly)
  );
}

describe("the web app's folders", () => {
  const edges = folderEdges();

  it('see the imports (the scan finds the app importing its folders)', () => {
    expect(edges.some((edge) => edge.from === APP)).toBe(true);
  });

  it('import each other in no cycle', () => {
    expect(findCycles(edges).map(describeCycle)).toEqual([]);
  });

  it.each(Object.entries(MAY_IMPORT_ONLY))('%s/ imports only the folders it may', (folder, allowed) => {
    const refused = edges
      .filter((edge) => edge.from === folder && !allowed.includes(edge.to))
      .map((edge) => `${edge.from}/ imports ${edge.to}/ (${edge.example})`);
    expect(refused).toEqual([]);
  });

  it('take the API contract as types only (its schemas stay out of the bundle)', () => {
    expect(contractValueImports()).toEqual([]);
  });
});

/**
 * The sign-in form's first load: main.tsx and every module it imports statically (`import … from`, not
 * `import()`, not `import type`), following the app's own files. What the browser must load and run before
 * the form works.
 */
function firstLoadFiles(): string[] {
  const seen = new Set<string>();
  const queue = [join(SRC, 'main.tsx')];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticValueImports(file).map((i) => i.specifier)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveSource(resolve(dirname(file), specifier));
      if (target !== undefined && !seen.has(target)) queue.push(target);
    }
  }
  return [...seen];
}

/** The file a relative import names (`./x` → `./x.ts`, `./x.tsx`, `./x/index.ts`), if it is TypeScript. */
function resolveSource(path: string): string | undefined {
  const candidates = [path, `${path}.ts`, `${path}.tsx`, join(path, 'index.ts')];
  return candidates.find((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate));
}

/** A file's imports that load code when it runs: static, not type-only; with the names taken. */
function staticValueImports(file: string): { specifier: string; names: string[] }[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const found: { specifier: string; names: string[] }[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || typeOnly(statement)) continue;
    const names: string[] = [];
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (bindings !== undefined && ts.isNamedImports(bindings)) {
        for (const element of bindings.elements) {
          if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
        }
      } else if (bindings !== undefined) names.push('*');
    } else {
      const clause = statement.exportClause;
      if (clause !== undefined && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
        }
      } else names.push('*');
    }
    found.push({ specifier: specifier.text, names });
  }
  return found;
}

/**
 * The names `@dial/core` exports from modules that use the phone library (libphonenumber-js), itself or
 * through another module of the package: importing one brings the library and its metadata along.
 */
function phoneLibraryExports(): Set<string> {
  const files = sourceFiles(CORE_SRC).filter((file) => !file.endsWith('.test.ts'));
  const imports = new Map(files.map((file) => [file, staticValueImports(file).map((i) => i.specifier)]));
  const uses = new Set(
    files.filter((file) => imports.get(file)!.some((specifier) => specifier.startsWith('libphonenumber-js'))),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const file of files) {
      if (uses.has(file)) continue;
      const targets = imports
        .get(file)!
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolveSource(resolve(dirname(file), specifier.replace(/\.js$/, ''))));
      if (targets.some((target) => target !== undefined && uses.has(target))) {
        uses.add(file);
        grew = true;
      }
    }
  }
  const names = new Set<string>();
  for (const file of uses) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const exported = ts.canHaveModifiers(statement)
        ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
        : false;
      if (!exported) continue;
      if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
        if (statement.name !== undefined) names.add(statement.name.text);
      } else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
        }
      }
    }
  }
  return names;
}

describe('the sign-in form’s first load (main.tsx and its static imports)', () => {
  const files = firstLoadFiles();
  const inside = (file: string) => relative(SRC, file);

  it('is seen whole (the scan reaches the sign-in form and its phone field)', () => {
    expect(files.map(inside)).toEqual(
      expect.arrayContaining(['main.tsx', 'App.tsx', 'sign-in/SignInFlow.tsx', 'sign-in/PhoneField.tsx']),
    );
  });

  it('leaves the phone library out: it loads once the form shows (sign-in/loadPhoneLibrary.ts)', () => {
    const phoneNames = phoneLibraryExports();
    // The scan of @dial/core sees which of its functions use the library.
    expect([...phoneNames]).toEqual(
      expect.arrayContaining(['formatPhoneInput', 'examplePhone', 'readE164', 'parsePhone', 'isValidPhone']),
    );
    expect(phoneNames.has('listCountries')).toBe(false);
    const found: string[] = [];
    for (const file of files) {
      if (inside(file) === 'sign-in/phoneLibrary.ts') found.push('sign-in/phoneLibrary.ts itself');
      for (const { specifier, names } of staticValueImports(file)) {
        if (specifier.startsWith('libphonenumber-js')) found.push(`${inside(file)} imports ${specifier}`);
        if (specifier !== '@dial/core') continue;
        for (const name of names) {
          if (name === '*' || phoneNames.has(name))
            found.push(`${inside(file)} imports ${name} from @dial/core`);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it('leaves zxcvbn out: only recovery/passwordStrength.ts imports it, in the worker of the recovery setup', () => {
    const importers = sourceFiles(SRC)
      .filter((file) => !file.endsWith('.test.ts'))
      .filter((file) => staticValueImports(file).some(({ specifier }) => specifier.startsWith('@zxcvbn-ts/')))
      .map(inside);
    expect(importers).toEqual(['recovery/passwordStrength.ts']);
    const found = files
      .map(inside)
      .filter((file) => file.startsWith('recovery/passwordStrength') || importers.includes(file));
    expect(found).toEqual([]);
  });
});

describe("viem's account-abstraction code (user operations, the smart account, the paymaster client)", () => {
  const inside = (file: string) => relative(SRC, file);
  const appFiles = sourceFiles(SRC).filter((file) => !/\.test\.tsx?$/.test(file));

  it('is imported by send/sponsoredSend.ts only, which no file imports statically: it loads with a sponsored send, not with the wallet', () => {
    const importers = appFiles
      .filter((file) =>
        staticValueImports(file).some(({ specifier }) => specifier.startsWith('viem/account-abstraction')),
      )
      .map(inside);
    expect(importers).toEqual(['send/sponsoredSend.ts']);
    const staticImporters = appFiles
      .filter((file) =>
        staticValueImports(file).some(({ specifier }) => /(^|\/)sponsoredSend(\.js)?$/.test(specifier)),
      )
      .map(inside);
    expect(staticImporters).toEqual([]);
  });
});
