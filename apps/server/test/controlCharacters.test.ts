import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../src/http/errorHandling.js';
import { registerControlCharacterCheck } from '../src/http/refuseControlCharacters.js';

/** An app with the check and three reads: one that reads its query undeclared, one that reads nothing. */
async function appWithReads() {
  const app = Fastify();
  registerErrorHandling(app);
  registerControlCharacterCheck(app);
  // Like the sandbox checkout page: no declared query string, but the handler reads it.
  app.get('/reads-query', async (request) => ({ got: (request.query as { token?: string }).token ?? null }));
  app.get('/reads-nothing', { config: { readsNoText: true } }, async () => ({ ok: true }));
  // readsNoText cannot switch the check off where the request can carry text anyway.
  app.get('/item/:id', { config: { readsNoText: true } }, async () => ({ ok: true }));
  app.post('/change', { config: { readsNoText: true } }, async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('the control-character check', () => {
  it('covers every route by default, an undeclared query string included', async () => {
    const app = await appWithReads();
    const answer = await app.inject({ method: 'GET', url: '/reads-query?token=a%00b' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('invalid_data');
    expect((await app.inject({ method: 'GET', url: '/reads-query?token=ab' })).json()).toEqual({ got: 'ab' });
    await app.close();
  });

  it('is left off only a read without parameters that reads nothing, never off a path parameter or a body', async () => {
    const app = await appWithReads();
    expect((await app.inject({ method: 'GET', url: '/reads-nothing?x=%01' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/item/a%00b' })).statusCode).toBe(400);
    const change = await app.inject({ method: 'POST', url: '/change', payload: { to: 'x\u0001y' } });
    expect(change.statusCode).toBe(400);
    await app.close();
  });
});
