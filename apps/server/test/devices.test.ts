import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../src/auth/devices.js';
import { linkMethod } from '../src/auth/linkMethod.js';
import { sweepExpiredRows } from '../src/db/sweepExpiredRows.js';
import { newDevice } from './browsers.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';

const EMAIL = 'ada@example.com';
const NEW_BROWSER = /^Dial: someone signed in to your account from a new browser\. Was this not you\?/;
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** Signs in on `device` and returns the answer. */
async function signInOn(
  t: TestApp,
  channel: 'sms' | 'email',
  to: string,
  device: string,
  headers: Record<string, string> = {},
) {
  const code = await t.requestCode(channel, to, { device, headers });
  const response = await t.post('/api/auth/otp/verify', { channel, to, code }, { device, headers });
  expect(response.statusCode).toBe(200);
  return response;
}

describe.each(DIALECTS)('browsers (device cookies) on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it('gives a browser without one a device cookie on otp/start: HttpOnly, SameSite=Strict, Path=/api/auth, a year', async () => {
    const t = await createTestApp(db());
    const response = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device: null });
    const cookie = response.cookies.find((candidate) => candidate.name === DEVICE_COOKIE);
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/auth',
      maxAge: 31_536_000,
    });
    expect(cookie?.secure).toBeUndefined();
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The code is bound to the hash of that cookie, never the cookie itself.
    const [row] = await db().selectFrom('otp_codes').select('device_hash').execute();
    expect(row?.device_hash).toBe(
      createHash('sha256')
        .update(cookie?.value ?? '')
        .digest('hex'),
    );
  });

  it('marks the device cookie Secure in production', async () => {
    const t = await createTestApp(db(), { config: { environment: 'production' } });
    const response = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device: null });
    expect(response.cookies.find((candidate) => candidate.name === DEVICE_COOKIE)?.secure).toBe(true);
  });

  it('sets the device cookie on a proof_of_work_required answer too, so the retry comes from the same browser', async () => {
    const t = await createTestApp(db());
    for (let i = 0; i < 3; i++) await t.requestCode('email', EMAIL, { device: newDevice() });
    const refused = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device: null });
    expect(refused.statusCode).toBe(403);
    expect(refused.cookies.find((candidate) => candidate.name === DEVICE_COOKIE)?.value).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it('keeps a browser’s device cookie, and replaces a made-up one', async () => {
    const t = await createTestApp(db());
    const device = newDevice();
    const kept = await t.post('/api/auth/otp/start', { channel: 'email', to: EMAIL }, { device });
    expect(kept.cookies.find((candidate) => candidate.name === DEVICE_COOKIE)?.value).toBe(device);
    const madeUp = await t.post(
      '/api/auth/otp/start',
      { channel: 'email', to: 'grace@example.com' },
      { device: 'not-a-token' },
    );
    expect(madeUp.cookies.find((candidate) => candidate.name === DEVICE_COOKIE)?.value).toMatch(
      /^[A-Za-z0-9_-]{43}$/,
    );
  });

  it('checks a code only for the browser that asked for it', async () => {
    const t = await createTestApp(db());
    const code = await t.requestCode('email', EMAIL, { device: newDevice() });
    const elsewhere = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code },
      { device: newDevice() },
    );
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.code).toBe('code_expired');
    const noCookie = await t.post(
      '/api/auth/otp/verify',
      { channel: 'email', to: EMAIL, code },
      { device: null },
    );
    expect(noCookie.json().error.code).toBe('code_expired');
  });

  it('records the browser at sign-in (its hash only, an id of its own, its User-Agent) and the session’s browser and method, and renews its cookie for a year', async () => {
    const t = await createTestApp(db());
    const device = newDevice();
    const response = await signInOn(t, 'email', EMAIL, device, { 'user-agent': FIREFOX_WINDOWS });
    expect(response.cookies.find((candidate) => candidate.name === DEVICE_COOKIE)).toMatchObject({
      value: device,
      maxAge: 31_536_000,
    });
    const userId = response.json().user.id;
    const deviceHash = createHash('sha256').update(device).digest('hex');
    const rows = await db().selectFrom('known_devices').selectAll().execute();
    expect(rows).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user_id: userId,
        device_hash: deviceHash,
        user_agent: FIREFOX_WINDOWS,
        created_at: t.clock.now().toISOString(),
        last_seen_at: t.clock.now().toISOString(),
      },
    ]);
    expect(rows[0]?.id).not.toBe(deviceHash);
    expect(JSON.stringify(rows)).not.toContain(device);
    const email = await db()
      .selectFrom('identities')
      .select('id')
      .where('value', '=', EMAIL)
      .executeTakeFirstOrThrow();
    expect(
      await db().selectFrom('sessions').select(['user_id', 'identity_id', 'device_hash']).execute(),
    ).toEqual([{ user_id: userId, identity_id: email.id, device_hash: deviceHash }]);
  });

  it('tells the owner of a sign-in from a new browser, not of a sign-up nor of a browser seen before', async () => {
    const t = await createTestApp(db());
    const phone = newDevice();
    await signInOn(t, 'sms', PHONE, phone);
    expect(t.transport.sent.filter((message) => NEW_BROWSER.test(message.text))).toHaveLength(0);

    t.clock.advance(60_000);
    await signInOn(t, 'sms', PHONE, phone);
    expect(t.transport.sent.filter((message) => NEW_BROWSER.test(message.text))).toHaveLength(0);

    const laptop = newDevice();
    await signInOn(t, 'sms', PHONE, laptop);
    const notices = t.transport.sent.filter((message) => NEW_BROWSER.test(message.text));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ channel: 'sms', to: PHONE });
    expect(notices[0]).not.toHaveProperty('code');
    expect(await db().selectFrom('account_events').select('kind').execute()).toEqual([
      { kind: 'new-browser-sign-in' },
    ]);
  });

  it('tells an e-mail user by e-mail', async () => {
    const t = await createTestApp(db());
    await signInOn(t, 'email', EMAIL, newDevice());
    await signInOn(t, 'email', EMAIL, newDevice());
    expect(t.transport.sent.at(-1)).toMatchObject({
      channel: 'email',
      to: EMAIL,
      subject: 'Dial: someone signed in to your account from a new browser',
    });
  });

  it('tells every phone number and e-mail address of the account, not only the one that signed in', async () => {
    const t = await createTestApp(db());
    const first = await signInOn(t, 'email', EMAIL, newDevice());
    const userId = first.json().user.id;
    t.clock.advance(60_000);
    await linkMethod(db(), userId, { kind: 'phone', value: PHONE }, 5, t.clock.now(), true);
    const sentBefore = t.transport.sent.length;
    // A new browser, with a code sent to the e-mail address (a hijacked mailbox, say): the phone hears too.
    await signInOn(t, 'email', EMAIL, newDevice());
    const notices = t.transport.sent.slice(sentBefore).filter((message) => message.code === undefined);
    expect(notices.map((message) => [message.channel, message.to, message.subject])).toEqual([
      ['email', EMAIL, 'Dial: someone signed in to your account from a new browser'],
      ['sms', PHONE, 'Dial: someone signed in to your account from a new browser'],
    ]);
  });

  it('signs in even when the new-browser notice cannot be sent', async () => {
    const t = await createTestApp(db());
    await signInOn(t, 'sms', PHONE, newDevice());
    const laptop = newDevice();
    const code = await t.requestCode('sms', PHONE, { device: laptop });
    // The transport fails from now on: the notice is lost, the sign-in is not.
    t.transport.send = async () => {
      throw new Error('the SMS provider is down');
    };
    const response = await t.post(
      '/api/auth/otp/verify',
      { channel: 'sms', to: PHONE, code },
      { device: laptop },
    );
    expect(response.statusCode).toBe(200);
    expect(await db().selectFrom('account_events').select('kind').execute()).toEqual([
      { kind: 'new-browser-sign-in' },
    ]);
  });

  it('forgets a browser not seen for longer than its cookie lives', async () => {
    const t = await createTestApp(db());
    await signInOn(t, 'email', EMAIL, newDevice());
    const later = new Date(t.clock.now().getTime() + 366 * 24 * 3_600_000);
    await sweepExpiredRows(db(), later, t.config);
    expect(await db().selectFrom('known_devices').selectAll().execute()).toEqual([]);
  });
});
