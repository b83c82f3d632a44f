import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The web app talks to the API only through its client (`api/client.ts`), which takes each route's method
 * and URL from the contract (`@dial/api/endpoints`) and its types from the route's declaration. Outside the
 * client, the app's code (its tests and test helpers, which drive the server itself, aside):
 *
 * - holds no `/api/` URL in a string or template (a URL of the API is `urlOf(route)`);
 * - calls no `fetch` and opens no `EventSource` (`callApi`, `openEventStream`);
 * - gives the client no type of its own for a request or an answer (`callApi<…>(…)`): the contract's are
 *   the only ones, and the one cast from JSON is inside the client.
 */
const SRC = dirname(new URL(import.meta.url).pathname);
const CLIENT = join(SRC, 'api', 'client.ts');
const CLIENT_CALLS = new Set(['callApi', 'urlOf', 'openEventStream']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** What a file does that only the client may: each finding as `line: what`. */
function directApiUse(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) &&
      // Not a module's name: the package `@dial/api…`, the folder `../api/…`.
      !node.text.startsWith('.') &&
      /\/api(\/|$|\?)/.test(node.text.replaceAll('@dial/api', ''))
    ) {
      report(node, `an API URL (${JSON.stringify(node.text)})`);
    }
    if (ts.isCallExpression(node)) {
      const callee = calleeName(node.expression);
      if (callee === 'fetch') report(node, 'fetch()');
      if (callee !== undefined && CLIENT_CALLS.has(callee) && node.typeArguments !== undefined) {
        report(node, `a type of its own for ${callee}()`);
      }
    }
    if (ts.isNewExpression(node) && calleeName(node.expression) === 'EventSource') {
      report(node, 'new EventSource()');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `fetch` for `fetch(…)`, `window.fetch(…)` and `globalThis.fetch(…)`. */
function calleeName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

describe('calls of the API', () => {
  it('are seen by the scan (each kind in a sample)', () => {
    const sample = [
      "const me = await fetch('/api/me');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text holding a template literal
      'const events = new EventSource(`/api/events?after=${id}`);',
      "const page = await callApi<{ items: string[] }>('listActivity');",
      "const url = '/api';",
      "const link = 'https://dial.example/api/openapi.json';",
      "import type { User } from '@dial/api';",
      "import { callApi } from '../api/client';",
      "const later = callApi('me');",
    ].join('\n');
    expect(directApiUse('sample.ts', sample)).toEqual([
      '1: fetch()',
      '1: an API URL ("/api/me")',
      '2: new EventSource()',
      '2: an API URL ("/api/events?after=")',
      '3: a type of its own for callApi()',
      '4: an API URL ("/api")',
      '5: an API URL ("https://dial.example/api/openapi.json")',
    ]);
  });

  it('go through the client only: no API URL, fetch, EventSource or type of its own elsewhere', () => {
    const files = sourceFiles(SRC).filter((file) => file !== CLIENT);
    expect(files.length).toBeGreaterThan(50);
    const found = files.flatMap((file) =>
      directApiUse(file, readFileSync(file, 'utf8')).map((what) => `${relative(SRC, file)}:${what}`),
    );
    expect(found).toEqual([]);
  });
});
