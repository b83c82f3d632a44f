import Fastify, { type FastifyReply } from 'fastify';
import { describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module: the symbol it finds at its first reply is the module's to keep. */
async function freshModule() {
  vi.resetModules();
  return import('../src/http/securityHeaders.js');
}

describe('constant headers', () => {
  it("are written straight into this Fastify's reply headers, over a route's own of the same name", async () => {
    const { constantHeaders, replyHeaders } = await freshModule();
    const setHeaders = constantHeaders({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    const app = Fastify();
    let found: unknown;
    app.get('/', (_request, reply) => {
      reply.header('Cache-Control', 'max-age=60').header('x-route', 'kept');
      found = replyHeaders(reply);
      setHeaders(reply);
      reply.send({ ok: true });
    });
    const response = await app.inject({ method: 'GET', url: '/' });
    // The fast way is the one taken: a Fastify that keeps its headers elsewhere fails here, not in production.
    expect(found).toMatchObject({ 'cache-control': 'no-store', 'x-route': 'kept' });
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-route']).toBe('kept');
    expect(response.json()).toEqual({ ok: true });
    await app.close();
  });

  it('are set through reply.headers where a reply has no such object', async () => {
    const { constantHeaders } = await freshModule();
    const headers = { 'x-frame-options': 'DENY' };
    const setHeaders = constantHeaders(headers);
    const reply = { headers: vi.fn() } as unknown as FastifyReply;
    setHeaders(reply);
    expect(reply.headers).toHaveBeenCalledWith(headers);
    // And the next reply too (the symbol was not found at the first).
    const next = { headers: vi.fn() } as unknown as FastifyReply;
    setHeaders(next);
    expect(next.headers).toHaveBeenCalledWith(headers);
  });
});
