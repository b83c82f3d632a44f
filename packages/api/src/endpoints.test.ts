/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from './endpoints.js';
import { API_ROUTES, ROUTES } from './routes.js';

describe('ENDPOINTS', () => {
  it('names every route once, with the method and URL its route answers', () => {
    expect(Object.keys(ENDPOINTS)).toEqual(Object.keys(ROUTES));
    for (const [name, route] of Object.entries(ROUTES)) {
      expect({ method: route.method, url: route.url }, name).toEqual(ENDPOINTS[name as keyof typeof ROUTES]);
    }
    expect(API_ROUTES).toEqual(Object.values(ROUTES));
  });

  it('imports nothing, so a client loads no schema with it', () => {
    const text = readFileSync(new URL('./endpoints.ts', import.meta.url), 'utf8');
    expect(text).not.toMatch(/^\s*(import|export\s[^=]*\sfrom)\s/m);
  });
});
