import { API_ROUTES } from '@dial/api';
import type { FastifySerializerCompiler } from 'fastify';
import { describe, expect, it } from 'vitest';
import { defaultSerializerCompiler, lazySerializerCompiler } from '../src/http/lazySerializers.js';
import { useTestDatabase } from './databases.js';
import { createTestApp } from './testApp.js';

const db = useTestDatabase('sqlite');

/** Every response schema of every route of the API's contract, as Fastify hands them to the compiler. */
function everyResponseSchema(): Array<Parameters<FastifySerializerCompiler<unknown>>[0]> {
  return API_ROUTES.flatMap((route) =>
    Object.entries(route.schema.response ?? {}).map(([httpStatus, schema]) => ({
      schema,
      method: route.method,
      url: route.url,
      httpStatus,
    })),
  );
}

describe('response serializers compiled at first use', () => {
  it('compiles every response schema of the API (a broken one fails here, not in a request)', () => {
    const compile = defaultSerializerCompiler();
    const schemas = everyResponseSchema();
    expect(schemas.length).toBeGreaterThan(100);
    for (const route of schemas) {
      expect(() => compile(route), `${route.method} ${route.url} ${route.httpStatus}`).not.toThrow();
    }
  });

  it('compiles a serializer once, at its first use, and writes what the eager one writes', () => {
    const calls: string[] = [];
    const eager = defaultSerializerCompiler();
    const lazy = lazySerializerCompiler((route) => {
      calls.push(`${route.method} ${route.url} ${route.httpStatus}`);
      return eager(route);
    });
    const route = everyResponseSchema().find(
      (schema) => schema.url === '/api/health' && schema.httpStatus === '200',
    )!;
    const serialize = lazy(route);
    expect(calls).toEqual([]);
    // Fields the schema does not name are left out, exactly as the eager serializer leaves them out.
    const body = { ok: true, secret: 'not in the schema' };
    expect(serialize(body)).toBe(eager(route)(body));
    expect(serialize(body)).toBe('{"ok":true}');
    expect(calls).toEqual(['GET /api/health 200']);
  });

  it('serializes the answers of a running app through the schemas', async () => {
    const t = await createTestApp(db());
    const answer = await t.get('/api/health');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('{"ok":true}');
  });
});
