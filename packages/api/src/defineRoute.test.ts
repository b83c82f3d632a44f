import { ERROR_CATALOGUE } from '@dial/core';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { defineRoute, errorBody, errorCodesOf } from './defineRoute.js';
import { API_ROUTES } from './routes.js';

describe('defineRoute', () => {
  it('builds one error body per status, its code enum the codes of that status', () => {
    const route = defineRoute({
      method: 'POST',
      url: '/api/example',
      tags: ['example'],
      summary: 'An example.',
      session: true,
      response: { 200: Type.Object({ ok: Type.Literal(true) }) },
      errors: ['wallet_not_found', 'not_found', 'too_many_requests'],
    });
    const codes = Object.fromEntries(
      Object.entries(route.schema.response).map(([status, schema]) => [status, errorCodesOf(schema)]),
    );
    expect(codes).toEqual({
      200: [],
      400: ['invalid_data'],
      401: ['unauthorized'],
      403: ['forbidden_origin'],
      404: ['not_found', 'wallet_not_found'],
      413: ['payload_too_large'],
      415: ['unsupported_media_type'],
      429: ['too_many_requests'],
    });
    expect(route.schema.security).toEqual([{ session: [] }]);
  });

  it('keeps an error body the route declares itself when it names exactly its status codes', () => {
    const body = errorBody(['not_ready'], { ok: Type.Literal(false) });
    const route = defineRoute({
      method: 'GET',
      url: '/api/example',
      tags: ['example'],
      summary: 'An example.',
      response: { 200: Type.Object({}), 503: body },
      errors: ['not_ready'],
    });
    expect(route.schema.response[503]).toBe(body);
  });

  it('refuses an error body whose codes are not those declared for its status', () => {
    expect(() =>
      defineRoute({
        method: 'GET',
        url: '/api/example',
        tags: ['example'],
        summary: 'An example.',
        response: { 200: Type.Object({}), 503: errorBody(['not_ready']) },
        errors: ['not_ready', 'rate_limit_unavailable'],
      }),
    ).toThrow(
      /GET \/api\/example: the 503 body names \[not_ready\], its codes are \[not_ready, rate_limit_unavailable\]/,
    );
  });
  it('refuses a URL whose parameters are not those of its params schema (in the types too)', () => {
    expect(() =>
      // @ts-expect-error the URL names :id, the route declares no params
      defineRoute({
        method: 'GET',
        url: '/api/example/:id',
        tags: ['example'],
        summary: 'An example.',
        response: { 200: Type.Object({}) },
        errors: [],
      }),
    ).toThrow('GET /api/example/:id: the URL names [id], its params are []');
    expect(() =>
      defineRoute({
        method: 'GET',
        url: '/api/example/:key/end',
        tags: ['example'],
        summary: 'An example.',
        // @ts-expect-error the params name `id`, the URL `:key`
        params: Type.Object({ id: Type.String() }),
        response: { 200: Type.Object({}) },
        errors: [],
      }),
    ).toThrow('GET /api/example/:key/end: the URL names [key], its params are [id]');
    const route = defineRoute({
      method: 'POST',
      url: '/api/example/:id/of/:owner',
      tags: ['example'],
      summary: 'An example.',
      params: Type.Object({ owner: Type.String(), id: Type.String() }),
      response: { 200: Type.Object({}) },
      errors: [],
    });
    expect(route.url).toBe('/api/example/:id/of/:owner');
  });
});

describe('the contract', () => {
  it('declares each method and path once', () => {
    const keys = API_ROUTES.map((route) => `${route.method} ${route.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('answers every declared code with its catalogue status', () => {
    for (const route of API_ROUTES) {
      for (const code of route.errors) {
        const status = ERROR_CATALOGUE[code].status;
        expect(errorCodesOf(route.schema.response[status]), `${route.method} ${route.url}`).toContain(code);
      }
    }
  });
});
