import { readFileSync } from 'node:fs';
import { API_ROUTES } from '@dial/api';
import { ERROR_CATALOGUE, ERROR_CODES } from '@dial/core';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from './databases.js';
import { createTestApp, SANDBOX_ONRAMP } from './testApp.js';

const DOCS_PATH = new URL('../../../docs/api.md', import.meta.url);

/** A route's answers: its statuses, and its error codes as `400 invalid_data`. */
interface Answers {
  statuses: string[];
  errors: string[];
}

/** What docs/api.md says, read from its `## Routes`, `## Routes outside the OpenAPI document` and `## Error codes`. */
interface ApiDocs {
  /** By `METHOD /path`, the path in OpenAPI's form (`{id}`). */
  routes: Record<string, Answers>;
  /** `METHOD /path` of the pages and files the OpenAPI document hides. */
  pages: string[];
  /** The error codes table: each code's status. */
  codes: Record<string, number>;
}

function readApiDocs(text: string): ApiDocs {
  const docs: ApiDocs = { routes: {}, pages: [], codes: {} };
  let section = '';
  let route: Answers | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      route = undefined;
      continue;
    }
    const heading = /^### ([A-Z]+) (\S+)$/.exec(line);
    if (heading !== null) {
      const key = `${heading[1]} ${heading[2]!.replace(/:(\w+)/g, '{$1}')}`;
      if (section === 'Routes') {
        route = { statuses: [], errors: [] };
        docs.routes[key] = route;
      } else if (section === 'Routes outside the OpenAPI document') {
        docs.pages.push(key);
      }
      continue;
    }
    if (route !== undefined && line.startsWith('- Statuses: ')) {
      route.statuses = line
        .slice('- Statuses: '.length)
        .split(',')
        .map((status) => status.trim());
    }
    if (route !== undefined && line.startsWith('- Errors: ')) {
      route.errors = [...line.matchAll(/`(\d{3} [a-z_]+)`/g)].map((match) => match[1]!);
    }
    const code = /^\| `([a-z_]+)` \| (\d{3}) \|/.exec(line);
    if (section === 'Error codes' && code !== null) docs.codes[code[1]!] = Number(code[2]);
  }
  return docs;
}

interface OpenApiOperation {
  responses: Record<
    string,
    { content?: { 'application/json'?: { schema?: { properties?: { error?: unknown } } } } }
  >;
}

/** Each operation of the OpenAPI document with its statuses and, per error status, the codes it declares. */
function readOpenApi(document: { paths: Record<string, Record<string, OpenApiOperation>> }) {
  const routes: Record<string, Answers> = {};
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const statuses = Object.keys(operation.responses).sort();
      const errors = statuses
        .filter((status) => Number(status) >= 400)
        .flatMap((status) => {
          const error = operation.responses[status]?.content?.['application/json']?.schema?.properties
            ?.error as
            | {
                properties?: {
                  code?: { enum?: string[] };
                  data?: { properties?: { code?: { enum?: string[] } } };
                };
              }
            | undefined;
          // A JSON-RPC error (POST /api/paymaster) names its catalogue codes in `data.code`.
          const codes = error?.properties?.code?.enum ??
            error?.properties?.data?.properties?.code?.enum ?? ['(no code enum)'];
          return codes.map((code) => `${status} ${code}`);
        });
      routes[`${method.toUpperCase()} ${path}`] = { statuses, errors: errors.sort() };
    }
  }
  return routes;
}

describe('docs/api.md and the OpenAPI document', () => {
  const db = useTestDatabase('sqlite');
  let app: FastifyInstance;
  let openApi: Record<string, Answers>;
  const docs = readApiDocs(readFileSync(DOCS_PATH, 'utf8'));

  beforeEach(async () => {
    // Every feature on, so every route is registered: the dev outbox, the local chain, the sandbox on-ramp.
    const t = await createTestApp(db(), {
      config: {
        localChain: { start: false, port: 8545, rpcUrl: 'http://127.0.0.1:9', usdc: null },
        onramp: SANDBOX_ONRAMP,
      },
    });
    app = t.app;
    const response = await t.get('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    openApi = readOpenApi(response.json());
  });

  it('list the same routes, each with the same statuses and error codes', () => {
    const documented = Object.fromEntries(
      Object.entries(docs.routes).map(([key, answers]) => [
        key,
        { statuses: [...answers.statuses].sort(), errors: [...answers.errors].sort() },
      ]),
    );
    expect(documented).toEqual(openApi);
  });

  it('the OpenAPI document holds every route of the contract, with its method and statuses', () => {
    for (const route of API_ROUTES) {
      const key = `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`;
      expect(openApi[key]?.statuses, key).toEqual(Object.keys(route.schema.response).sort());
    }
    expect(Object.keys(openApi).length).toBe(API_ROUTES.length);
  });

  it('the routes the docs list outside the OpenAPI document exist', () => {
    expect(docs.pages.length).toBeGreaterThan(0);
    for (const page of docs.pages) {
      const [method, url] = page.split(' ') as [HTTPMethods, string];
      expect(app.hasRoute({ method, url }), page).toBe(true);
      expect(openApi[page], page).toBeUndefined();
    }
  });

  it('the error codes table lists every code of the catalogue with its status, and nothing else', () => {
    expect(docs.codes).toEqual(
      Object.fromEntries(ERROR_CODES.map((code) => [code, ERROR_CATALOGUE[code].status])),
    );
  });
});
