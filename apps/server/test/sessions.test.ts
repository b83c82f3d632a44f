import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../src/auth/sessions.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, ORIGIN, sessionToken } from './testApp.js';

const EMAIL = 'ada@example.com';
const HOUR = 3_600_000;

describe.each(DIALECTS)('sessions on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('sets an HttpOnly, SameSite=Strict session cookie of 32 random bytes on sign-in', async () => {
    const t = await createTestApp(db());
    const { response } = await t.signIn('email', EMAIL);
    const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(cookie?.secure).toBeUndefined();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(cookie?.value ?? '', 'base64url')).toHaveLength(32);
  });

  it('marks the cookie Secure in production', async () => {
    const t = await createTestApp(db(), { config: { environment: 'production' } });
    const { response } = await t.signIn('email', EMAIL);
    const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
    expect(cookie?.secure).toBe(true);
  });

  it('stores only the SHA-256 of the token', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    const rows = await db().selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers GET /api/me with the user of the session, and 401 without one', async () => {
    const t = await createTestApp(db());
    const { token, response } = await t.signIn('email', EMAIL);
    const me = await t.get('/api/me', { token });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ user: response.json().user });

    const signedOut = await t.get('/api/me');
    expect(signedOut.statusCode).toBe(401);
    expect(signedOut.json().error.code).toBe('unauthorized');
    const forged = await t.get('/api/me', { token: 'A'.repeat(43) });
    expect(forged.statusCode).toBe(401);
  });

  it('gives a new token at every sign-in', async () => {
    const t = await createTestApp(db());
    const first = await t.signIn('email', EMAIL);
    t.clock.advance(60_000);
    const second = await t.signIn('email', EMAIL);
    expect(second.token).not.toBe(first.token);
  });

  it('replaces a session cookie sent to verify (fixation), and the old token stops working', async () => {
    const t = await createTestApp(db());
    // The attacker's own valid session, planted in the victim's browser.
    const planted = (await t.signIn('email', 'mallory@example.com')).token;
    const code = await t.requestCode('email', EMAIL);
    const response = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code },
      { token: planted },
    );
    expect(response.statusCode).toBe(200);
    const fresh = sessionToken(response);
    expect(fresh).not.toBe(planted);
    expect((await t.get('/api/me', { token: fresh })).json().user.email).toBe(EMAIL);
    expect((await t.get('/api/me', { token: planted })).statusCode).toBe(401);
  });

  it('ignores a made-up session cookie sent to verify', async () => {
    const t = await createTestApp(db());
    const made = 'x'.repeat(43);
    const code = await t.requestCode('email', EMAIL);
    const response = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code },
      { token: made },
    );
    expect(sessionToken(response)).not.toBe(made);
    expect((await t.get('/api/me', { token: made })).statusCode).toBe(401);
  });

  it('logs out on the server: the old cookie gets 401 afterwards, and the cookie is cleared', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    const logout = await t.post('/api/auth/logout', {}, { token });
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ ok: true });
    const cleared = logout.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
    expect(cleared?.value).toBe('');
    expect(cleared?.expires?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await db().selectFrom('sessions').selectAll().execute()).toEqual([]);
    expect((await t.get('/api/me', { token })).statusCode).toBe(401);
  });

  it('logs out without a body and without a session', async () => {
    const t = await createTestApp(db());
    const response = await t.post('/api/auth/logout');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
  });

  it('ends a session idle for 24 hours', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    t.clock.advance(24 * HOUR - 1000);
    expect((await t.get('/api/me', { token })).statusCode).toBe(200);
    // That request counted as activity: 24 hours from it, not from sign-in.
    t.clock.advance(24 * HOUR - 1000);
    expect((await t.get('/api/me', { token })).statusCode).toBe(200);
    t.clock.advance(24 * HOUR);
    const idle = await t.get('/api/me', { token });
    expect(idle.statusCode).toBe(401);
    expect(idle.cookies.find((cookie) => cookie.name === SESSION_COOKIE)?.value).toBe('');
    expect(await db().selectFrom('sessions').selectAll().execute()).toEqual([]);
  });

  it('ends a session 7 days after sign-in however active it is', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    for (let hours = 12; hours < 7 * 24; hours += 12) {
      t.clock.advance(12 * HOUR);
      expect((await t.get('/api/me', { token })).statusCode).toBe(200);
    }
    t.clock.advance(12 * HOUR);
    expect((await t.get('/api/me', { token })).statusCode).toBe(401);
  });

  it('writes last_seen_at at most once a minute', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    const lastSeen = async () =>
      (await db().selectFrom('sessions').select('last_seen_at').executeTakeFirstOrThrow()).last_seen_at;
    const signedInAt = await lastSeen();
    t.clock.advance(30_000);
    await t.get('/api/me', { token });
    expect(await lastSeen()).toBe(signedInAt);
    t.clock.advance(30_000);
    await t.get('/api/me', { token });
    expect(await lastSeen()).toBe(t.clock.now().toISOString());
  });

  it('follows the configured SESSION_IDLE_HOURS and SESSION_MAX_DAYS', async () => {
    const t = await createTestApp(db(), { config: { session: { idleHours: 1, maxDays: 1 } } });
    const { token } = await t.signIn('email', EMAIL);
    t.clock.advance(HOUR);
    expect((await t.get('/api/me', { token })).statusCode).toBe(401);
  });
});

describe.each(DIALECTS)('cross-site request refusal on %s', (dialect) => {
  const db = useTestDatabase(dialect);
  const body = { channel: 'email', to: EMAIL };

  it('refuses a POST from another origin with 403 forbidden_origin, before doing anything', async () => {
    const t = await createTestApp(db());
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { origin: 'https://evil.example' },
      payload: body,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden_origin');
    expect(t.transport.sent).toHaveLength(0);
  });

  it('refuses a cross-site logout, so the session survives', async () => {
    const t = await createTestApp(db());
    const { token } = await t.signIn('email', EMAIL);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://evil.example', cookie: `${SESSION_COOKIE}=${token}` },
    });
    expect(response.statusCode).toBe(403);
    expect((await t.get('/api/me', { token })).statusCode).toBe(200);
  });

  it.each(['PUT', 'PATCH', 'DELETE'] as const)('refuses a cross-origin %s', async (method) => {
    const t = await createTestApp(db());
    const response = await t.app.inject({ method, url: '/api/wallet', headers: { origin: 'null' } });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden_origin');
  });

  it('refuses a POST without Origin whose Sec-Fetch-Site is cross-site', async () => {
    const t = await createTestApp(db());
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { 'sec-fetch-site': 'cross-site' },
      payload: body,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().error.code).toBe('forbidden_origin');
  });

  it('accepts a same-origin POST, and one from the 127.0.0.1 alias in development', async () => {
    const t = await createTestApp(db());
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin' },
      payload: body,
    });
    expect(same.statusCode).toBe(200);
    const alias = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { origin: 'http://127.0.0.1:8080' },
      payload: { channel: 'email', to: 'grace@example.com' },
    });
    expect(alias.statusCode).toBe(200);
  });

  it('accepts a POST with neither Origin nor Sec-Fetch-Site (curl)', async () => {
    const t = await createTestApp(db());
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/otp/start', payload: body });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a text/plain body, the kind a cross-site form can send without a preflight', async () => {
    const t = await createTestApp(db());
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/otp/start',
      headers: { origin: ORIGIN, 'content-type': 'text/plain' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('unsupported_media_type');
    expect(t.transport.sent).toHaveLength(0);
  });
});
