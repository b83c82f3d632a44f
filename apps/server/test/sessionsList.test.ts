import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, sessionToken, type TestApp } from './testApp.js';

const EMAIL = 'ada@example.com';
const MINUTE = 60_000;
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Signs in by e-mail from a browser of its own (its device cookie and User-Agent); returns the session token. */
async function signInFrom(t: TestApp, to: string, userAgent?: string): Promise<string> {
  const headers: Record<string, string> = userAgent === undefined ? {} : { 'user-agent': userAgent };
  const browser = { device: newDevice(), headers };
  const started = await t.post('/api/auth/otp/start', { channel: 'email', to }, browser);
  expect(started.statusCode, started.body).toBe(200);
  const verified = await t.post(
    '/api/auth/otp/verify',
    { channel: 'email', to, code: t.transport.lastCode(to) },
    browser,
  );
  expect(verified.statusCode, verified.body).toBe(200);
  return sessionToken(verified);
}

interface ListedSession {
  id: string;
  device: string;
  method: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

async function listSessions(t: TestApp, token: string): Promise<ListedSession[]> {
  const response = await t.get('/api/auth/sessions', { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().sessions;
}

/** Whether a token still opens `GET /api/me` on the app. */
async function works(t: TestApp, token: string): Promise<boolean> {
  const status = (await t.get('/api/me', { token })).statusCode;
  if (status !== 200 && status !== 401) throw new Error(`GET /api/me answered ${status}`);
  return status === 200;
}

function clearsCookie(response: { cookies: { name: string; value: string; expires?: Date }[] }): boolean {
  const cookie = response.cookies.find((candidate) => candidate.name === SESSION_COOKIE);
  return cookie !== undefined && cookie.value === '' && (cookie.expires?.getTime() ?? Infinity) <= Date.now();
}

describe.each(DIALECTS)('the sessions list on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('lists the live sessions, the most recently seen first, with browser, method and this one marked', async () => {
    const t = await createTestApp(db());
    const laptop = await signInFrom(t, EMAIL, CHROME_MAC);
    t.clock.advance(5 * MINUTE);
    const phone = await signInFrom(t, EMAIL, SAFARI_IPHONE);
    const userId = (await t.get('/api/me', { token: phone })).json().user.id;
    // Sessions that have ended but are not swept yet: one idle for more than 24 hours, one past its 7 days.
    const policy = t.config.session;
    await createSession(db(), userId, policy, new Date('2029-12-31T11:00:00.000Z'), {
      userAgent: CHROME_MAC,
    });
    await createSession(db(), userId, policy, new Date('2029-12-20T12:00:00.000Z'));
    // Another user's session.
    await signInFrom(t, 'grace@example.com', FIREFOX_WINDOWS);
    t.clock.advance(5 * MINUTE);

    expect(await listSessions(t, laptop)).toEqual([
      {
        id: expect.any(String),
        device: 'Chrome on macOS',
        method: 'email',
        createdAt: '2030-01-01T12:00:00.000Z',
        // Seen by this very request.
        lastSeenAt: '2030-01-01T12:10:00.000Z',
        current: true,
      },
      {
        id: expect.any(String),
        device: 'Safari on iPhone',
        method: 'email',
        createdAt: '2030-01-01T12:05:00.000Z',
        lastSeenAt: '2030-01-01T12:05:00.000Z',
        current: false,
      },
    ]);
  });

  it('names a session without a User-Agent, or from before migration 0008, as well as it can', async () => {
    const t = await createTestApp(db());
    const { token, response } = await t.signIn('sms', '+447400123456');
    await db()
      .updateTable('sessions')
      .set({ user_agent: null, method: null })
      .where('user_id', '=', response.json().user.id)
      .execute();
    expect(await listSessions(t, token)).toEqual([
      expect.objectContaining({ device: 'Unknown browser', method: null, current: true }),
    ]);
  });

  it('ends another browser’s session (a stolen cookie) on every server at once', async () => {
    const first = await createTestApp(db());
    const second = await createTestApp(db());
    const owner = await signInFrom(first, EMAIL, CHROME_MAC);
    // The attacker signed in with a phished code, or carries a copy of a session cookie.
    const stolen = await signInFrom(second, EMAIL, FIREFOX_WINDOWS);
    expect(await works(second, stolen)).toBe(true);

    const theirs = (await listSessions(first, owner)).find((session) => !session.current)!;
    expect(theirs.device).toBe('Firefox on Windows');
    const ended = await first.post(`/api/auth/sessions/${theirs.id}/end`, undefined, { token: owner });
    expect(ended.json()).toEqual({ ok: true });
    expect(clearsCookie(ended)).toBe(false);

    // The next request with the stolen cookie is refused by the other server too, with nothing cached.
    expect(await works(second, stolen)).toBe(false);
    expect(await works(first, stolen)).toBe(false);
    expect(await works(second, owner)).toBe(true);
    expect((await listSessions(second, owner)).map((session) => session.id)).not.toContain(theirs.id);
  });

  it('answers 404 not_found to an attacker ending another user’s session, which goes on working', async () => {
    const t = await createTestApp(db());
    const victim = await signInFrom(t, EMAIL, SAFARI_IPHONE);
    const [victimSession] = await listSessions(t, victim);
    const attacker = await signInFrom(t, 'mallory@example.com', CHROME_MAC);

    expectError(
      await t.post(`/api/auth/sessions/${victimSession!.id}/end`, undefined, { token: attacker }),
      404,
      'not_found',
    );
    expectError(
      await t.post(`/api/auth/sessions/${randomUUID()}/end`, undefined, { token: attacker }),
      404,
      'not_found',
    );
    expect(await works(t, victim)).toBe(true);
    expect(await works(t, attacker)).toBe(true);
  });

  it('ends this session when it is the one named, and clears its cookie', async () => {
    const t = await createTestApp(db());
    const token = await signInFrom(t, EMAIL, CHROME_MAC);
    const other = await signInFrom(t, EMAIL, SAFARI_IPHONE);
    const mine = (await listSessions(t, token)).find((session) => session.current)!;
    const ended = await t.post(`/api/auth/sessions/${mine.id}/end`, undefined, { token });
    expect(ended.json()).toEqual({ ok: true });
    expect(clearsCookie(ended)).toBe(true);
    expect(await works(t, token)).toBe(false);
    expect(await works(t, other)).toBe(true);
  });

  it('ends every other session of the person, counting the live ones, on every server', async () => {
    const first = await createTestApp(db());
    const second = await createTestApp(db());
    const kept = await signInFrom(first, EMAIL, CHROME_MAC);
    const others = [await signInFrom(first, EMAIL, SAFARI_IPHONE), await signInFrom(first, EMAIL)];
    const userId = (await first.get('/api/me', { token: kept })).json().user.id;
    // An ended session not swept yet: removed too, but not counted.
    await createSession(db(), userId, first.config.session, new Date('2029-12-20T12:00:00.000Z'));
    const grace = await signInFrom(first, 'grace@example.com');

    const answer = await first.post('/api/auth/sessions/end-others', undefined, { token: kept });
    expect(answer.json()).toEqual({ ended: 2 });
    expect(clearsCookie(answer)).toBe(false);
    for (const token of others) expect(await works(second, token)).toBe(false);
    expect(await works(second, kept)).toBe(true);
    expect(await works(second, grace)).toBe(true);
    const rows = await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
  });

  it('signs out everywhere: every session of the person ends, this one too, and its cookie is cleared', async () => {
    const first = await createTestApp(db());
    const second = await createTestApp(db());
    const here = await signInFrom(first, EMAIL, CHROME_MAC);
    const there = await signInFrom(second, EMAIL, SAFARI_IPHONE);
    const grace = await signInFrom(first, 'grace@example.com');

    const answer = await first.post('/api/auth/logout/everywhere', undefined, { token: here });
    expect(answer.json()).toEqual({ ok: true });
    expect(clearsCookie(answer)).toBe(true);
    expect(await works(second, here)).toBe(false);
    expect(await works(second, there)).toBe(false);
    expect(await works(first, there)).toBe(false);
    expect(await works(second, grace)).toBe(true);
  });

  it('answers every sessions route with 401 unauthorized without a session', async () => {
    const t = await createTestApp(db());
    expectError(await t.get('/api/auth/sessions'), 401, 'unauthorized');
    expectError(await t.post(`/api/auth/sessions/${randomUUID()}/end`), 401, 'unauthorized');
    expectError(await t.post('/api/auth/sessions/end-others'), 401, 'unauthorized');
    expectError(await t.post('/api/auth/logout/everywhere'), 401, 'unauthorized');
  });
});
