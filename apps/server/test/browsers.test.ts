import { accountChangeTarget, DialError } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { forgetBrowser } from '../src/auth/browsers.js';
import { createSession, hashToken } from '../src/auth/sessions.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, PHONE, type RequestOptions, sessionToken, type TestApp } from './testApp.js';
import { accountProof, registerWallet, userIdOf } from './walletProof.js';

const EMAIL = 'ada@example.com';
const MINUTE = 60_000;
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const NEW_BROWSER = /^Dial: someone signed in to your account from a new browser\./;

/** A browser: its device cookie and User-Agent, as the test app's requests send them. */
interface Browser {
  device: string;
  headers: Record<string, string>;
}

function browser(userAgent: string): Browser {
  return { device: newDevice(), headers: { 'user-agent': userAgent } };
}

/** Signs in with a code sent to `to` (read off the recording transport: the owner's, or intercepted). */
async function signInFrom(t: TestApp, from: Browser, channel: 'sms' | 'email', to: string): Promise<string> {
  const started = await t.post('/api/auth/otp/start', { channel, to }, from);
  expect(started.statusCode, started.body).toBe(200);
  const verified = await t.post(
    '/api/auth/otp/verify',
    { channel, to, code: t.transport.lastCode(to) },
    from,
  );
  expect(verified.statusCode, verified.body).toBe(200);
  return sessionToken(verified);
}

interface ListedBrowser {
  id: string;
  name: string;
  firstSeenAt: string;
  lastSeenAt: string;
  sessions: number;
  current: boolean;
}

async function listBrowsers(t: TestApp, token: string, from: RequestOptions): Promise<ListedBrowser[]> {
  const response = await t.get('/api/auth/browsers', { token, ...from });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().browsers;
}

/** Whether a token still opens `GET /api/me`. */
async function works(t: TestApp, token: string): Promise<boolean> {
  const status = (await t.get('/api/me', { token })).statusCode;
  if (status !== 200 && status !== 401) throw new Error(`GET /api/me answered ${status}`);
  return status === 200;
}

/** The new-browser notices sent to `to` so far. */
function newBrowserNotices(t: TestApp, to: string): number {
  return t.transport.sent.filter((message) => message.to === to && NEW_BROWSER.test(message.text)).length;
}

describe.each(DIALECTS)('the browsers list on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('lists the account’s browsers, the most recently seen first, named, with first and last seen, live sessions and this one marked', async () => {
    const t = await createTestApp(db());
    const laptop = browser(CHROME_MAC);
    const phone = browser(SAFARI_IPHONE);
    await signInFrom(t, laptop, 'email', EMAIL);
    t.clock.advance(5 * MINUTE);
    await signInFrom(t, laptop, 'email', EMAIL);
    t.clock.advance(5 * MINUTE);
    const onPhone = await signInFrom(t, phone, 'email', EMAIL);
    const userId = await userIdOf(t, onPhone);
    // A session of the laptop that has ended (idle for more than 24 hours) but is not swept yet.
    await createSession(db(), userId, t.config.session, new Date('2029-12-30T12:00:00.000Z'), {
      deviceHash: hashToken(laptop.device),
    });
    // Another account's browser.
    await signInFrom(t, browser(FIREFOX_WINDOWS), 'email', 'grace@example.com');
    t.clock.advance(5 * MINUTE);

    expect(await listBrowsers(t, onPhone, phone)).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Safari on iPhone',
        firstSeenAt: '2030-01-01T12:10:00.000Z',
        // Its session's request, this one.
        lastSeenAt: '2030-01-01T12:15:00.000Z',
        sessions: 1,
        current: true,
      },
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        name: 'Chrome on macOS',
        firstSeenAt: '2030-01-01T12:00:00.000Z',
        lastSeenAt: '2030-01-01T12:05:00.000Z',
        sessions: 2,
        current: false,
      },
    ]);
  });

  it('marks no browser as this one for a request without the device cookie', async () => {
    const t = await createTestApp(db());
    const laptop = browser(CHROME_MAC);
    const token = await signInFrom(t, laptop, 'email', EMAIL);
    const listed = await listBrowsers(t, token, { device: null });
    expect(listed).toEqual([expect.objectContaining({ name: 'Chrome on macOS', current: false })]);
  });

  it('answers 404 for another account’s browser, asks for nothing and forgets nothing', async () => {
    const t = await createTestApp(db());
    const owners = browser(CHROME_MAC);
    const owner = await signInFrom(t, owners, 'email', EMAIL);
    const [ownersBrowser] = await listBrowsers(t, owner, owners);
    const attackers = browser(FIREFOX_WINDOWS);
    const attacker = await signInFrom(t, attackers, 'email', 'mallory@example.com');

    expectError(
      await t.post(`/api/auth/browsers/${ownersBrowser!.id}/forget`, {}, { token: attacker, ...attackers }),
      404,
      'not_found',
    );
    await expect(forgetBrowser(db(), await userIdOf(t, attacker), ownersBrowser!.id)).rejects.toMatchObject({
      constructor: DialError,
      code: 'not_found',
    });
    expect(await listBrowsers(t, owner, owners)).toEqual([ownersBrowser]);
    expect(await works(t, owner)).toBe(true);
    expect(await db().selectFrom('account_changes').selectAll().execute()).toEqual([]);
  });

  it('answers 404 for a browser id that does not exist', async () => {
    const t = await createTestApp(db());
    const owners = browser(CHROME_MAC);
    const owner = await signInFrom(t, owners, 'email', EMAIL);
    expectError(
      await t.post(
        '/api/auth/browsers/00000000-0000-4000-8000-000000000000/forget',
        {},
        { token: owner, ...owners },
      ),
      404,
      'not_found',
    );
  });

  it('only asks to forget a browser without the key’s proof: 202, and the browser and its session stay meanwhile', async () => {
    const t = await createTestApp(db());
    const owners = browser(CHROME_MAC);
    const owner = await signInFrom(t, owners, 'sms', PHONE);
    await registerWallet(t, owner);
    t.clock.advance(MINUTE);
    // A thief with a stolen session tries to sign the owner's own browser out.
    const thiefs = browser(FIREFOX_WINDOWS);
    const thief = await signInFrom(t, thiefs, 'sms', PHONE);
    const ownersBrowser = (await listBrowsers(t, thief, thiefs)).find((each) => !each.current)!;

    const asked = await t.post(
      `/api/auth/browsers/${ownersBrowser.id}/forget`,
      {},
      { token: thief, ...thiefs },
    );
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().pending).toMatchObject({ action: 'forget-browser', status: 'pending' });
    expect(await works(t, owner)).toBe(true);
    expect((await listBrowsers(t, owner, owners)).map((each) => each.id)).toContain(ownersBrowser.id);
  });

  it('forgets a browser with the key’s proof: its sessions end on every server, and its next sign-in, even by a second intercepted code, tells the owner (the never-forgotten browser)', async () => {
    const first = await createTestApp(db());
    const second = await createTestApp(db());
    const owners = browser(CHROME_MAC);
    const owner = await signInFrom(first, owners, 'sms', PHONE);
    const { wallet } = await registerWallet(first, owner);

    // The attacker signs in from their own browser with a code intercepted from the owner's phone: the
    // owner is told of a new browser.
    first.clock.advance(MINUTE);
    const attackers = browser(FIREFOX_WINDOWS);
    const attacker = await signInFrom(first, attackers, 'sms', PHONE);
    expect(newBrowserNotices(first, PHONE)).toBe(1);
    expect(await works(second, attacker)).toBe(true);

    // The owner forgets that browser, with the key's proof.
    const theirs = (await listBrowsers(first, owner, owners)).find((each) => !each.current)!;
    expect(theirs).toMatchObject({ name: 'Firefox on Windows', sessions: 1 });
    const proof = await accountProof(first, owner, wallet, {
      action: 'forget-browser',
      target: accountChangeTarget({ action: 'forget-browser', id: theirs.id }),
    });
    const forgotten = await first.post(
      `/api/auth/browsers/${theirs.id}/forget`,
      { proof },
      { token: owner, ...owners },
    );
    expect(forgotten.statusCode, forgotten.body).toBe(200);
    expect(forgotten.json()).toEqual({ endedSessions: 1 });

    // Its session is refused by every server; the owner's own browser and session stay.
    expect(await works(first, attacker)).toBe(false);
    expect(await works(second, attacker)).toBe(false);
    expect(await works(second, owner)).toBe(true);
    expect(await listBrowsers(first, owner, owners)).toEqual([
      expect.objectContaining({ name: 'Chrome on macOS', current: true }),
    ]);

    // A second intercepted code, from the same browser (its device cookie unchanged): a new browser again.
    first.clock.advance(MINUTE);
    await signInFrom(second, attackers, 'sms', PHONE);
    expect(newBrowserNotices(first, PHONE) + newBrowserNotices(second, PHONE)).toBe(2);
    const kinds = await db()
      .selectFrom('account_events')
      .select('kind')
      .where('kind', '=', 'new-browser-sign-in')
      .execute();
    expect(kinds).toHaveLength(2);
    expect((await listBrowsers(first, owner, owners)).map((each) => each.name).sort()).toEqual([
      'Chrome on macOS',
      'Firefox on Windows',
    ]);
  });

  it('forgetting a browser ends only that account’s sessions from it, not another account’s in the same browser', async () => {
    const t = await createTestApp(db());
    const shared = browser(CHROME_MAC);
    const ada = await signInFrom(t, shared, 'email', EMAIL);
    // The same browser signs in to a second account (its own session cookie).
    const grace = await signInFrom(t, shared, 'email', 'grace@example.com');
    const [adas] = await listBrowsers(t, ada, shared);

    expect(await forgetBrowser(db(), await userIdOf(t, ada), adas!.id)).toEqual({ endedSessions: 1 });
    expect(await works(t, ada)).toBe(false);
    expect(await works(t, grace)).toBe(true);
    expect(await listBrowsers(t, grace, shared)).toEqual([
      expect.objectContaining({ name: 'Chrome on macOS', sessions: 1, current: true }),
    ]);
  });
});
