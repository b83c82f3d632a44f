import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { linkMethod } from '../src/auth/linkMethod.js';
import type { User } from '../src/auth/users.js';
import { findOrCreateUser } from '../src/auth/users.js';
import type { Database } from '../src/db/database.js';
import { createOutboxTransport, DeliveryError, type MessageTransport } from '../src/delivery/index.js';
import { renderOutboxPage } from '../src/dev/outboxPage.js';
import { createDatabaseOutboxStore } from '../src/dev/outboxStore.js';
import { type NoticeKind, notifyOwner } from '../src/notices/notifyOwner.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { createTestApp, PHONE, type TestApp } from './testApp.js';
import { testWallet } from './walletProof.js';

const EMAIL = 'ada@example.com';
const ADVICE = "Was this not you? Sign in and check your wallet's security, or contact your Dial operator.";
const CANCEL_ADVICE = 'Not you? Open Dial and choose "Secure my account".';

/** A test app whose log lines are kept, to check what a failed notice logs. */
async function appWithLog(db: Parameters<typeof createTestApp>[0]) {
  const lines: string[] = [];
  const t = await createTestApp(db, {
    config: { logLevel: 'info' },
    deps: { logStream: { write: (line) => lines.push(line) } },
  });
  return { t, lines };
}

/** Creates a user (as a sign-up does) and returns them as the API shows them. */
async function signedUpUser(
  db: Kysely<Database>,
  t: TestApp,
  channel: 'sms' | 'email',
  to: string,
): Promise<User> {
  const { user } = await findOrCreateUser(
    db,
    { kind: channel === 'sms' ? 'phone' : 'email', value: to },
    { allowlist: null, maxUsers: null },
    t.clock.now(),
  );
  return user;
}

describe.each(DIALECTS)('notices to the owner on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it.each<[NoticeKind, string, string?]>([
    ['shares-rotated', "Dial: your wallet's key shares were replaced."],
    ['recovery-changed', "Dial: your wallet's recovery was changed."],
    ['key-exported', "Dial: your wallet's private key was exported."],
    ['new-browser-sign-in', 'Dial: someone signed in to your account from a new browser.'],
    ['method-linked', 'Dial: a new way to sign in was added to your account.'],
    ['method-removed', 'Dial: a way to sign in was removed from your account.'],
    ['change-requested', 'Dial: someone asked to change your account.', CANCEL_ADVICE],
    ['change-cancelled', 'Dial: a change to your account was cancelled.'],
    ['change-applied', 'Dial: a change asked for without your wallet was made.'],
    ['change-failed', 'Dial: a change asked for on your account was not made.'],
    ['account-secured', 'Dial: your account was secured.'],
    ['browser-forgotten', 'Dial: a browser was signed out and forgotten.'],
    ['sessions-ended', 'Dial: sessions of your account were ended.'],
    [
      'device-enrolled',
      'Dial: a new device can open your wallet.',
      'If this was not you, remove it in Settings > Devices.',
    ],
    [
      'device-removed',
      'Dial: a device was removed from your wallet.',
      'If this was not you, open Dial: "Secure my account".',
    ],
  ])(
    'records %s and sends it by SMS to a user with a phone, without a code',
    async (kind, opening, advice = ADVICE) => {
      const { t } = await appWithLog(db());
      const user = await signedUpUser(db(), t, 'sms', PHONE);
      const sentBefore = t.transport.sent.length;
      await notifyOwner(
        { db: db(), now: t.clock.now, transports: { sms: t.transport } },
        user,
        kind,
        t.app.log,
      );

      expect(t.transport.sent).toHaveLength(sentBefore + 1);
      const notice = t.transport.sent.at(-1);
      expect(notice).toEqual({
        channel: 'sms',
        to: PHONE,
        subject: opening.slice(0, -1),
        text: `${opening} ${advice}`,
      });
      expect(notice).not.toHaveProperty('code');
      expect(notice?.text.length).toBeLessThanOrEqual(160);
      const events = await db().selectFrom('account_events').selectAll().execute();
      expect(events).toEqual([
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          user_id: user.id,
          kind,
          created_at: t.clock.now().toISOString(),
          details: null,
          read_at: null,
        },
      ]);
    },
  );

  it('sends it to every phone number and e-mail address of the account, oldest first, never a wallet, with what happened', async () => {
    const { t } = await appWithLog(db());
    const user = await signedUpUser(db(), t, 'email', EMAIL);
    const methods = [
      { kind: 'phone', value: PHONE },
      { kind: 'wallet', value: testWallet(1).address },
      { kind: 'email', value: 'ada@work.example' },
      { kind: 'phone', value: '+447400123457' },
    ] as const;
    for (const method of methods) {
      t.clock.advance(60_000);
      await linkMethod(db(), user.id, method, 5, t.clock.now(), false);
    }
    const sentBefore = t.transport.sent.length;
    // The removed number hears too, once; one of the account's own is not told twice.
    await notifyOwner(
      { db: db(), now: t.clock.now, transports: { sms: t.transport, email: t.transport } },
      user,
      'method-removed',
      t.app.log,
      {
        summary: 'the phone number +447400123458 was removed',
        alsoTo: { channel: 'sms', to: '+447400123458' },
      },
    );
    await notifyOwner(
      { db: db(), now: t.clock.now, transports: { sms: t.transport, email: t.transport } },
      user,
      'key-exported',
      t.app.log,
      {
        alsoTo: { channel: 'sms', to: PHONE },
      },
    );

    const sent = t.transport.sent.slice(sentBefore);
    expect(sent.map((message) => [message.channel, message.to])).toEqual([
      ['email', EMAIL],
      ['sms', PHONE],
      ['email', 'ada@work.example'],
      ['sms', '+447400123457'],
      ['sms', '+447400123458'],
      ['email', EMAIL],
      ['sms', PHONE],
      ['email', 'ada@work.example'],
      ['sms', '+447400123457'],
    ]);
    expect(sent[1]?.text).toBe(`Dial: a way to sign in was removed from your account. ${ADVICE}`);
    expect(sent.every((message) => message.code === undefined)).toBe(true);
    const events = await db()
      .selectFrom('account_events')
      .select(['kind', 'details'])
      .orderBy('created_at')
      .orderBy('kind', 'desc')
      .execute();
    expect(events).toEqual([
      {
        kind: 'method-removed',
        details: JSON.stringify({ summary: 'the phone number +447400123458 was removed' }),
      },
      { kind: 'key-exported', details: null },
    ]);
  });

  it('records a notice in the app only for an account with no phone number and no e-mail address', async () => {
    const { t, lines } = await appWithLog(db());
    const { user } = await findOrCreateUser(
      db(),
      { kind: 'wallet', value: testWallet(2).address },
      { allowlist: null, maxUsers: null },
      t.clock.now(),
    );
    const sentBefore = t.transport.sent.length;
    await notifyOwner(
      { db: db(), now: t.clock.now, transports: { sms: t.transport, email: t.transport } },
      user,
      'key-exported',
      t.app.log,
    );
    expect(t.transport.sent).toHaveLength(sentBefore);
    expect(await db().selectFrom('account_events').select('kind').execute()).toEqual([
      { kind: 'key-exported' },
    ]);
    const logged = lines.map((line) => JSON.parse(line)).find((line) => line.notice === 'key-exported');
    expect(logged).toMatchObject({
      level: 30,
      msg: 'notice recorded in the app only: the account has no phone number or e-mail address',
    });
  });

  it('sends an e-mail, with when it happened, to a user without a phone', async () => {
    const { t } = await appWithLog(db());
    const user = await signedUpUser(db(), t, 'email', EMAIL);
    await notifyOwner(
      { db: db(), now: t.clock.now, transports: { email: t.transport } },
      user,
      'recovery-changed',
      t.app.log,
    );
    expect(t.transport.sent.at(-1)).toEqual({
      channel: 'email',
      to: EMAIL,
      subject: "Dial: your wallet's recovery was changed",
      text: `Your wallet's recovery was changed (2030-01-01 12:00 UTC).\n\n${ADVICE}\n`,
    });
  });

  it('logs a notice the transport refused, without the address or the text, and does not throw', async () => {
    const refusing: MessageTransport = {
      name: 'refusing',
      async send() {
        throw new DeliveryError('Twilio refused the message (HTTP 400, error 21211)');
      },
    };
    const { t, lines } = await appWithLog(db());
    const user = await signedUpUser(db(), t, 'sms', PHONE);
    await expect(
      notifyOwner(
        { db: db(), now: t.clock.now, transports: { sms: refusing } },
        user,
        'key-exported',
        t.app.log,
      ),
    ).resolves.toBeUndefined();

    const logged = lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'notice delivery failed');
    expect(logged).toMatchObject({
      level: 40,
      notice: 'key-exported',
      channel: 'sms',
      transport: 'refusing',
      reason: 'Twilio refused the message (HTTP 400, error 21211)',
    });
    const all = lines.join('\n');
    expect(all).not.toContain(PHONE);
    expect(all).not.toContain('private key was exported');
    // The event is recorded even though the notice could not be sent.
    expect(await db().selectFrom('account_events').select('kind').execute()).toEqual([
      { kind: 'key-exported' },
    ]);
  });

  it('logs only the name of an unexpected transport error, whose message could quote the text', async () => {
    const broken: MessageTransport = {
      name: 'broken',
      async send(message) {
        throw new TypeError(`cannot send ${message.text} to ${message.to}`);
      },
    };
    const { t, lines } = await appWithLog(db());
    const user = await signedUpUser(db(), t, 'email', EMAIL);
    await notifyOwner(
      { db: db(), now: t.clock.now, transports: { email: broken } },
      user,
      'shares-rotated',
      t.app.log,
    );
    const logged = lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'notice delivery failed');
    expect(logged).toMatchObject({ reason: 'TypeError', transport: 'broken' });
    expect(lines.join('\n')).not.toContain(EMAIL);
  });

  it('logs and skips a notice whose channel has no transport (production without Twilio)', async () => {
    const { t, lines } = await appWithLog(db());
    const user = await signedUpUser(db(), t, 'sms', PHONE);
    await notifyOwner({ db: db(), now: t.clock.now, transports: {} }, user, 'new-browser-sign-in', t.app.log);
    const logged = lines
      .map((line) => JSON.parse(line))
      .find((line) => line.msg?.startsWith('notice not sent'));
    expect(logged).toMatchObject({ level: 40, notice: 'new-browser-sign-in', channel: 'sms' });
    expect(await db().selectFrom('account_events').select('kind').execute()).toEqual([
      { kind: 'new-browser-sign-in' },
    ]);
  });

  it('keeps a notice in the dev outbox without a code, and the outbox shows none', async () => {
    const t = await createTestApp(db());
    const user = await signedUpUser(db(), t, 'sms', PHONE);
    const store = createDatabaseOutboxStore(db(), t.clock.now);
    const outbox = createOutboxTransport(store, () => {});
    await notifyOwner(
      { db: db(), now: t.clock.now, transports: { sms: outbox } },
      user,
      'recovery-changed',
      t.app.log,
    );

    const listed = await t.get('/dev/outbox.json');
    expect(listed.statusCode).toBe(200);
    const [message] = listed.json().messages;
    expect(message).toMatchObject({
      channel: 'sms',
      to: PHONE,
      text: expect.stringContaining('recovery was changed'),
    });
    expect(message).not.toHaveProperty('code');
    const page = renderOutboxPage(await store.list());
    expect(page).toContain('<td>—</td>');
    expect(page).toContain('recovery was changed');
  });

  it('deletes a user’s events with the user', async () => {
    const t = await createTestApp(db());
    const user = await signedUpUser(db(), t, 'email', EMAIL);
    await notifyOwner({ db: db(), now: t.clock.now, transports: {} }, user, 'key-exported', t.app.log);
    await db().deleteFrom('users').where('id', '=', user.id).execute();
    expect(await db().selectFrom('account_events').selectAll().execute()).toEqual([]);
  });
});
