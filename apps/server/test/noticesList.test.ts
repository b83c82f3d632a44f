import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AccountEventKind } from '../src/db/database.js';
import { notifyOwner } from '../src/notices/notifyOwner.js';
import { DIALECTS, useTestDatabase } from './databases.js';
import { expectError } from './expectError.js';
import { createTestApp, type TestApp } from './testApp.js';
import { userIdOf } from './walletProof.js';

const EMAIL = 'ada@example.com';
const MINUTE = 60_000;

interface ListedNotice {
  id: string;
  kind: string;
  summary: string | null;
  createdAt: string;
  read: boolean;
}

interface NoticePage {
  notices: ListedNotice[];
  nextCursor: string | null;
  unread: number;
}

async function listNotices(t: TestApp, token: string, query = ''): Promise<NoticePage> {
  const response = await t.get(`/api/account/notices${query}`, { token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Signs in (up) by e-mail and returns the session token and the user's id. */
async function signedIn(t: TestApp, email: string): Promise<{ token: string; userId: string }> {
  const { token } = await t.signIn('email', email);
  return { token, userId: await userIdOf(t, token) };
}

describe.each(DIALECTS)('the notices list on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  /** Tells the user about `kind` now, as the server does (recorded, and sent to their address). */
  const tell = (t: TestApp, userId: string, kind: AccountEventKind, summary?: string) =>
    notifyOwner(
      { db: db(), now: t.clock.now, transports: { email: t.transport } },
      { id: userId },
      kind,
      t.app.log,
      {
        summary,
      },
    );

  it('lists the account’s notices newest first, with kind, summary, time and read state, and how many are unread', async () => {
    const t = await createTestApp(db());
    const ada = await signedIn(t, EMAIL);
    const grace = await signedIn(t, 'grace@example.com');
    await tell(t, ada.userId, 'new-browser-sign-in');
    t.clock.advance(MINUTE);
    await tell(t, ada.userId, 'change-requested', 'link the e-mail address mallory@example.com');
    await tell(t, grace.userId, 'key-exported');
    t.clock.advance(MINUTE);

    expect(await listNotices(t, ada.token)).toEqual({
      notices: [
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          kind: 'change-requested',
          summary: 'link the e-mail address mallory@example.com',
          createdAt: '2030-01-01T12:01:00.000Z',
          read: false,
        },
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          kind: 'new-browser-sign-in',
          summary: null,
          createdAt: '2030-01-01T12:00:00.000Z',
          read: false,
        },
      ],
      nextCursor: null,
      unread: 2,
    });
  });

  it('lists nothing for an account that was told nothing', async () => {
    const t = await createTestApp(db());
    const ada = await signedIn(t, EMAIL);
    expect(await listNotices(t, ada.token)).toEqual({ notices: [], nextCursor: null, unread: 0 });
  });

  it('pages by its cursor, skipping and repeating nothing when notices share a millisecond', async () => {
    const t = await createTestApp(db());
    const ada = await signedIn(t, EMAIL);
    const at = t.clock.now().toISOString();
    const ids = Array.from({ length: 5 }, () => randomUUID());
    await db()
      .insertInto('account_events')
      .values(ids.map((id) => ({ id, user_id: ada.userId, kind: 'method-linked' as const, created_at: at })))
      .execute();

    const seen: string[] = [];
    let query = '?limit=2';
    for (let page = 0; page < 3; page++) {
      const { notices, nextCursor, unread } = await listNotices(t, ada.token, query);
      expect(unread).toBe(5);
      seen.push(...notices.map((notice) => notice.id));
      if (page < 2) {
        expect(notices).toHaveLength(2);
        expect(nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
        query = `?limit=2&cursor=${nextCursor}`;
      } else {
        expect(notices).toHaveLength(1);
        expect(nextCursor).toBeNull();
      }
    }
    expect(seen).toEqual([...ids].sort().reverse());
  });

  it('gives at most 50 a page: a larger limit, or a cursor it did not give, is invalid_data', async () => {
    const t = await createTestApp(db());
    const ada = await signedIn(t, EMAIL);
    expectError(await t.get('/api/account/notices?limit=51', { token: ada.token }), 400, 'invalid_data');
    const forged = Buffer.from('yesterday/1', 'utf8').toString('base64url');
    expectError(
      await t.get(`/api/account/notices?cursor=${forged}`, { token: ada.token }),
      400,
      'invalid_data',
    );
  });

  it('marks every notice read', async () => {
    const t = await createTestApp(db());
    const ada = await signedIn(t, EMAIL);
    await tell(t, ada.userId, 'method-linked');
    t.clock.advance(MINUTE);
    await tell(t, ada.userId, 'method-removed');

    const marked = await t.post('/api/account/notices/read', {}, { token: ada.token });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toEqual({ marked: 2 });
    const { notices, unread } = await listNotices(t, ada.token);
    expect(unread).toBe(0);
    expect(notices.map((notice) => notice.read)).toEqual([true, true]);
    // Nothing left to mark.
    expect((await t.post('/api/account/notices/read', {}, { token: ada.token })).json()).toEqual({
      marked: 0,
    });
  });

  it('marks read up to a notice (it and the older ones), so one that came after the list was shown stays unread', async () => {
    const t = await createTestApp(db());
    const ada = await signedIn(t, EMAIL);
    await tell(t, ada.userId, 'method-linked');
    t.clock.advance(MINUTE);
    await tell(t, ada.userId, 'recovery-changed');
    const shown = await listNotices(t, ada.token);
    t.clock.advance(MINUTE);
    await tell(t, ada.userId, 'key-exported');

    const marked = await t.post(
      '/api/account/notices/read',
      { upTo: shown.notices[0]!.id },
      { token: ada.token },
    );
    expect(marked.json()).toEqual({ marked: 2 });
    const after = await listNotices(t, ada.token);
    expect(after.unread).toBe(1);
    expect(after.notices.map((notice) => [notice.kind, notice.read])).toEqual([
      ['key-exported', false],
      ['recovery-changed', true],
      ['method-linked', true],
    ]);
  });

  it('never lists or marks another account’s notices: its notice id answers 404, and its notices stay unread', async () => {
    const t = await createTestApp(db());
    const owner = await signedIn(t, EMAIL);
    const attacker = await signedIn(t, 'mallory@example.com');
    await tell(t, owner.userId, 'new-browser-sign-in');
    const [ownersNotice] = (await listNotices(t, owner.token)).notices;

    expect(await listNotices(t, attacker.token)).toEqual({ notices: [], nextCursor: null, unread: 0 });
    // A cursor made from the owner's notice pages the attacker's own notices only.
    const cursor = Buffer.from(`2031-01-01T00:00:00.000Z/${ownersNotice!.id}`, 'utf8').toString('base64url');
    expect((await listNotices(t, attacker.token, `?cursor=${cursor}`)).notices).toEqual([]);
    expectError(
      await t.post('/api/account/notices/read', { upTo: ownersNotice!.id }, { token: attacker.token }),
      404,
      'not_found',
    );
    expect(await t.post('/api/account/notices/read', {}, { token: attacker.token })).toMatchObject({
      statusCode: 200,
    });
    expect(await listNotices(t, owner.token)).toMatchObject({ unread: 1, notices: [{ read: false }] });
  });

  it('answers 401 without a session', async () => {
    const t = await createTestApp(db());
    expectError(await t.get('/api/account/notices'), 401, 'unauthorized');
    expectError(await t.post('/api/account/notices/read', {}), 401, 'unauthorized');
  });
});
