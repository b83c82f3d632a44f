import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerCookies } from '../src/http/cookies.js';

/** A Fastify app with the cookie decorations and a few routes that use them. */
async function cookieApp() {
  const app = Fastify();
  registerCookies(app);
  const reads: Array<Record<string, string | undefined>> = [];
  app.get('/read', async (request) => {
    // Read twice: the second read is the same parse.
    reads.push(request.cookies);
    return { cookies: request.cookies, same: request.cookies === reads.at(-1) };
  });
  app.get('/set', async (_request, reply) => {
    reply.setCookie('a', 'first', { path: '/', httpOnly: true, sameSite: 'strict' });
    reply.setCookie('b', 'other', { path: '/api/auth', maxAge: 60 });
    // The same name, domain and path again: replaces the first.
    reply.setCookie('a', 'second', { path: '/', httpOnly: true, sameSite: 'strict', secure: true });
    return { ok: true };
  });
  app.get('/clear', async (_request, reply) => {
    reply.setCookie('a', 'value', { path: '/' });
    reply.clearCookie('a', { path: '/', httpOnly: true, sameSite: 'strict' });
    return { ok: true };
  });
  app.get('/header-then-cookie', async (_request, reply) => {
    reply.header('x-other', '1');
    reply.setCookie('a', 'value', { path: '/' });
    return { ok: true };
  });
  await app.ready();
  return { app, reads };
}

describe('cookies', () => {
  it('reads the Cookie header when a route asks, once a request', async () => {
    const { app } = await cookieApp();
    const response = await app.inject({
      url: '/read',
      headers: { cookie: 'dial_session=abc; other=x%20y; dial_session=later' },
    });
    // Percent-decoded; of a name sent twice, the first (as browsers send the most specific first).
    expect(response.json()).toEqual({ cookies: { dial_session: 'abc', other: 'x y' }, same: true });
    await app.close();
  });

  it('gives an empty set to a request without a Cookie header, or with one it cannot read', async () => {
    const { app } = await cookieApp();
    expect((await app.inject({ url: '/read' })).json()).toEqual({ cookies: {}, same: true });
    const garbled = await app.inject({ url: '/read', headers: { cookie: ';;=; novalue; =x' } });
    expect(garbled.statusCode).toBe(200);
    expect(garbled.json().cookies.dial_session).toBeUndefined();
    await app.close();
  });

  it('keeps each request’s cookies to itself', async () => {
    const { app, reads } = await cookieApp();
    await app.inject({ url: '/read', headers: { cookie: 'dial_session=one' } });
    await app.inject({ url: '/read' });
    expect(reads).toEqual([{ dial_session: 'one' }, {}]);
    await app.close();
  });

  it('writes one Set-Cookie for each name and path, the last one set, with its attributes', async () => {
    const { app } = await cookieApp();
    const response = await app.inject({ url: '/set' });
    expect(response.headers['set-cookie']).toEqual([
      'a=second; Path=/; HttpOnly; Secure; SameSite=Strict',
      'b=other; Max-Age=60; Path=/api/auth; SameSite=Lax',
    ]);
    await app.close();
  });

  it('clears a cookie: empty, expired, on the same path, replacing one set before on this answer', async () => {
    const { app } = await cookieApp();
    const response = await app.inject({ url: '/clear' });
    expect(response.headers['set-cookie']).toEqual([
      'a=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict',
    ]);
    await app.close();
  });

  it('leaves the answer’s other headers alone', async () => {
    const { app } = await cookieApp();
    const response = await app.inject({ url: '/header-then-cookie' });
    expect(response.headers['x-other']).toBe('1');
    expect(response.headers['set-cookie']).toEqual(['a=value; Path=/; SameSite=Lax']);
    await app.close();
  });

  it('cannot be made to end a cookie early or add an attribute (no header injection)', async () => {
    const app = Fastify();
    registerCookies(app);
    app.get('/value', async (_request, reply) => {
      reply.setCookie('a', 'x; Domain=evil.example\r\nx-injected: 1', { path: '/' });
      return { ok: true };
    });
    app.get('/name', async (_request, reply) => {
      reply.setCookie('a; Domain=evil.example', 'x', { path: '/' });
      return { ok: true };
    });
    const value = await app.inject({ url: '/value' });
    // The value is percent-encoded: one cookie, no Domain, no other header.
    expect(value.headers['set-cookie']).toEqual([
      'a=x%3B%20Domain%3Devil.example%0D%0Ax-injected%3A%201; Path=/; SameSite=Lax',
    ]);
    expect(value.headers['x-injected']).toBeUndefined();
    // A name that is not a token is refused, and no cookie is set.
    const name = await app.inject({ url: '/name' });
    expect(name.statusCode).toBe(500);
    expect(name.headers['set-cookie']).toBeUndefined();
    await app.close();
  });
});
