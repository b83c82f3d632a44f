import { randomUUID } from 'node:crypto';
import { accountChangeTarget } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { createSession, SESSION_COOKIE } from '../src/auth/sessions.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, sessionToken, type TestApp } from './testApp.js';
import { accountProof, registerWallet, testWallet } from './walletProof.js';

const EMAIL = 'ada@example.com';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The account's embedded wallet: its key signs the step-up proofs. */
const KEY = testWallet(1);
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

/** Registers the account's embedded wallet from this session, as the web app does after a sign-up. */
async function registerKey(t: TestApp, token: string): Promise<void> {
  const { response } = await registerWallet(t, token, { wallet: KEY });
  expect(response.statusCode, response.body).toBe(201);
}

/** The body of an ending with the key's proof of it (over a challenge of this session). */
async function withProof(t: TestApp, token: string, id: string) {
  const change = { action: 'end-sessions', id } as const;
  return {
    proof: await accountProof(t, token, KEY, { action: change.action, target: accountChangeTarget(change) }),
  };
}

/** Uses each session once (they end after 24 hours idle), `hours` later. */
async function keepAlive(t: TestApp, tokens: string[], hours: number): Promise<void> {
  t.clock.advance(hours * HOUR);
  for (const token of tokens) expect(await works(t, token)).toBe(true);
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

    await registerKey(first, owner);

    const theirs = (await listSessions(first, owner)).find((session) => !session.current)!;
    expect(theirs.device).toBe('Firefox on Windows');
    const ended = await first.post(
      `/api/auth/sessions/${theirs.id}/end`,
      await withProof(first, owner, theirs.id),
      {
        token: owner,
      },
    );
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ok: true });
    expect(clearsCookie(ended)).toBe(false);

    // The next request with the stolen cookie is refused by the other server too, with nothing cached.
    expect(await works(second, stolen)).toBe(false);
    expect(await works(first, stolen)).toBe(false);
    expect(await works(second, owner)).toBe(true);
    expect((await listSessions(second, owner)).map((session) => session.id)).not.toContain(theirs.id);
  });

  it('asks to end another browser’s session without the proof: it works for 48 hours more, then ends', async () => {
    const t = await createTestApp(db());
    const owner = await signInFrom(t, EMAIL, CHROME_MAC);
    const other = await signInFrom(t, EMAIL, FIREFOX_WINDOWS);
    await registerKey(t, owner);
    const theirs = (await listSessions(t, owner)).find((session) => !session.current)!;

    const asked = await t.post(`/api/auth/sessions/${theirs.id}/end`, {}, { token: owner });
    expect(asked.statusCode).toBe(202);
    expect(asked.json().pending).toMatchObject({
      action: 'end-sessions',
      summary: 'End the session of Firefox on Windows',
      status: 'pending',
      requestedFrom: 'Chrome on macOS',
      requestedHere: true,
      appliesAt: new Date(t.clock.now().getTime() + 48 * HOUR).toISOString(),
    });
    expect(clearsCookie(asked)).toBe(false);
    await keepAlive(t, [owner, other], 20);
    await keepAlive(t, [owner, other], 20);
    expect(await t.applyDueChanges()).toBe(0);

    t.clock.advance(8 * HOUR);
    expect(await t.applyDueChanges()).toBe(1);
    expect(await works(t, other)).toBe(false);
    expect(await works(t, owner)).toBe(true);
  });

  it('answers 404 not_found to an attacker ending another user’s session, which goes on working', async () => {
    const t = await createTestApp(db());
    const victim = await signInFrom(t, EMAIL, SAFARI_IPHONE);
    const [victimSession] = await listSessions(t, victim);
    const attacker = await signInFrom(t, 'mallory@example.com', CHROME_MAC);
    await registerKey(t, attacker);

    // With their own key's proof, or asked without one: the same answer as for a session that does not exist.
    expectError(
      await t.post(
        `/api/auth/sessions/${victimSession!.id}/end`,
        await withProof(t, attacker, victimSession!.id),
        {
          token: attacker,
        },
      ),
      404,
      'not_found',
    );
    expectError(
      await t.post(`/api/auth/sessions/${victimSession!.id}/end`, {}, { token: attacker }),
      404,
      'not_found',
    );
    expectError(
      await t.post(`/api/auth/sessions/${randomUUID()}/end`, {}, { token: attacker }),
      404,
      'not_found',
    );
    expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    expect(await works(t, victim)).toBe(true);
    expect(await works(t, attacker)).toBe(true);
  });

  it('ends this session when it is the one named, without a proof (signing out), and clears its cookie', async () => {
    const t = await createTestApp(db());
    const token = await signInFrom(t, EMAIL, CHROME_MAC);
    const other = await signInFrom(t, EMAIL, SAFARI_IPHONE);
    await registerKey(t, token);
    const mine = (await listSessions(t, token)).find((session) => session.current)!;
    const ended = await t.post(`/api/auth/sessions/${mine.id}/end`, {}, { token });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toEqual({ ok: true });
    expect(await db().selectFrom('account_changes').select('id').execute()).toEqual([]);
    expect(clearsCookie(ended)).toBe(true);
    expect(await works(t, token)).toBe(false);
    expect(await works(t, other)).toBe(true);
  });

  it('ends every other session of the person with the key’s proof, counting the live ones, on every server', async () => {
    const first = await createTestApp(db());
    const second = await createTestApp(db());
    const kept = await signInFrom(first, EMAIL, CHROME_MAC);
    const others = [await signInFrom(first, EMAIL, SAFARI_IPHONE), await signInFrom(first, EMAIL)];
    const userId = (await first.get('/api/me', { token: kept })).json().user.id;
    // An ended session not swept yet: removed too, but not counted.
    await createSession(db(), userId, first.config.session, new Date('2029-12-20T12:00:00.000Z'));
    const grace = await signInFrom(first, 'grace@example.com');
    await registerKey(first, kept);

    const answer = await first.post(
      '/api/auth/sessions/end-others',
      await withProof(first, kept, 'all-others'),
      {
        token: kept,
      },
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ended: 2 });
    expect(clearsCookie(answer)).toBe(false);
    for (const token of others) expect(await works(second, token)).toBe(false);
    expect(await works(second, kept)).toBe(true);
    expect(await works(second, grace)).toBe(true);
    const rows = await db().selectFrom('sessions').select('id').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
  });

  it('asks to end every other session without the proof: they work for 48 hours more, then end, and the asking one is kept', async () => {
    const t = await createTestApp(db());
    const kept = await signInFrom(t, EMAIL, CHROME_MAC);
    const others = [await signInFrom(t, EMAIL, SAFARI_IPHONE), await signInFrom(t, EMAIL, FIREFOX_WINDOWS)];
    const grace = await signInFrom(t, 'grace@example.com');
    await registerKey(t, kept);

    const asked = await t.post('/api/auth/sessions/end-others', {}, { token: kept });
    expect(asked.statusCode).toBe(202);
    expect(asked.json().pending).toMatchObject({
      action: 'end-sessions',
      summary: 'End every other session',
      status: 'pending',
    });
    await keepAlive(t, [kept, ...others, grace], 20);
    await keepAlive(t, [kept, ...others, grace], 20);
    expect(await t.applyDueChanges()).toBe(0);

    t.clock.advance(8 * HOUR);
    expect(await t.applyDueChanges()).toBe(1);
    for (const token of others) expect(await works(t, token)).toBe(false);
    expect(await works(t, kept)).toBe(true);
    expect(await works(t, grace)).toBe(true);
  });

  it('signs out everywhere with the key’s proof: every session of the person ends, this one too, and its cookie is cleared', async () => {
    const first = await createTestApp(db());
    const second = await createTestApp(db());
    const here = await signInFrom(first, EMAIL, CHROME_MAC);
    const there = await signInFrom(second, EMAIL, SAFARI_IPHONE);
    const grace = await signInFrom(first, 'grace@example.com');
    await registerKey(first, here);

    const answer = await first.post(
      '/api/auth/logout/everywhere',
      await withProof(first, here, 'all-others'),
      {
        token: here,
      },
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ ok: true });
    expect(clearsCookie(answer)).toBe(true);
    expect(await works(second, here)).toBe(false);
    expect(await works(second, there)).toBe(false);
    expect(await works(first, there)).toBe(false);
    expect(await works(second, grace)).toBe(true);
  });

  it('signs out everywhere without the proof: this session ends at once and its cookie is cleared, the others after 48 hours', async () => {
    const t = await createTestApp(db());
    const here = await signInFrom(t, EMAIL, CHROME_MAC);
    const there = await signInFrom(t, EMAIL, SAFARI_IPHONE);
    await registerKey(t, here);

    const answer = await t.post('/api/auth/logout/everywhere', {}, { token: here });
    expect(answer.statusCode).toBe(202);
    expect(answer.json().pending).toMatchObject({
      action: 'end-sessions',
      summary: 'End every other session',
    });
    expect(clearsCookie(answer)).toBe(true);
    expect(await works(t, here)).toBe(false);
    await keepAlive(t, [there], 20);
    await keepAlive(t, [there], 20);
    t.clock.advance(8 * HOUR);
    expect(await t.applyDueChanges()).toBe(1);
    expect(await works(t, there)).toBe(false);
  });

  it('answers every sessions route with 401 unauthorized without a session', async () => {
    const t = await createTestApp(db());
    expectError(await t.get('/api/auth/sessions'), 401, 'unauthorized');
    expectError(await t.post(`/api/auth/sessions/${randomUUID()}/end`, {}), 401, 'unauthorized');
    expectError(await t.post('/api/auth/sessions/end-others', {}), 401, 'unauthorized');
    expectError(await t.post('/api/auth/logout/everywhere', {}), 401, 'unauthorized');
  });
});
