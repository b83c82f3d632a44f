import { DialError } from '@dial/core';
import { PHONE } from '@dial/server/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DialServer, withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_KEY } from '../keys/testing/testWallet';

/**
 * The settings screen's requests, sent to the real server (its routes, database and rules) through the
 * stubbed fetch, with a user signed in by phone whose wallet's device share this browser holds (the
 * in-memory stand-in for the IndexedDB store): each change carries the key's proof and is made at once.
 * Without the device share, the same change is only asked for and waits.
 */
const memory = await vi.hoisted(async () =>
  (await import('../keys/testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('../keys/deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('../keys/legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { deviceStore } = await import('../keys/deviceStore');
const { listMethods, listSessions, startLinkCode } = await import('./accountApi');
const { linkCodeRoutes } = await import('./linkCodeRoutes');
const {
  changeFindable,
  endEveryOtherSession,
  endOneSession,
  linkByCode,
  removeSignInMethod,
  signOutEverywhere,
} = await import('./provedChanges');

const dialServer = withDialServer();
let server: DialServer;
let USER = '';

beforeEach(async () => {
  server = dialServer();
  USER = server.userId;
  memory.clear();
  const { device } = await server.register(TEST_WALLET_KEY);
  await deviceStore.save(USER, device);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const EMAIL = 'ada@example.com';

/** Links `EMAIL` to the signed-in account through the code it is sent, as the settings screen does. */
async function linkEmail() {
  const started = await startLinkCode('email', EMAIL);
  return linkByCode(USER, 'email', started.to, server.test.transport.lastCode(started.to));
}

/** Signs the same person in from another browser (by the same phone); returns that session's token. */
async function signInElsewhere(): Promise<string> {
  // The phone's next code may be sent once the resend wait is over.
  server.test.clock.advance(5 * 60_000);
  const { token } = await server.test.signIn('sms', PHONE);
  return token;
}

describe('sign-in methods', () => {
  it('lists the phone number the person signed in with, in full, findable and trusted, and the cap', async () => {
    const { methods, maxMethods } = await listMethods();
    expect(maxMethods).toBe(server.test.config.maxSignInMethods);
    expect(methods).toEqual([
      {
        id: expect.any(String),
        kind: 'phone',
        value: PHONE,
        findable: true,
        trusted: true,
        createdAt: expect.any(String),
      },
    ]);
  });

  it("links an e-mail address by the code sent to it, at once and trusted with the key's proof", async () => {
    const linked = await linkEmail();
    expect(linked).toEqual({
      applied: true,
      value: expect.objectContaining({ kind: 'email', value: EMAIL, findable: null, trusted: true }),
    });
    const proofs = server.answers.filter((answer) => answer.route === 'POST /api/account/proof');
    expect(proofs.map((answer) => answer.status)).toEqual([201]);
    const { methods } = await listMethods();
    expect(methods.map((method) => method.value)).toEqual([PHONE, EMAIL]);
  });

  it('only asks to link it when this browser holds no device share: it waits, and is not linked yet', async () => {
    memory.clear();
    const asked = await linkEmail();
    expect(asked).toEqual({
      applied: false,
      reason: 'no-device-share',
      pending: expect.objectContaining({
        action: 'link-method',
        status: 'pending',
        requestedHere: true,
        summary: expect.stringContaining(EMAIL),
      }),
    });
    expect(server.count('POST /api/auth/methods/code/verify', 202)).toBe(1);
    expect((await listMethods()).methods).toHaveLength(1);
  });

  it('refuses a wrong code with invalid_code and links nothing', async () => {
    const routes = linkCodeRoutes(USER);
    const { to } = await routes.send('email', EMAIL, { onChecking: () => undefined });
    const right = server.test.transport.lastCode(to);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await routes.verify('email', to, wrong).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'invalid_code' });
    expect((await listMethods()).methods).toHaveLength(1);
  });

  it("refuses another account's e-mail address with method_taken once the code proves it", async () => {
    await server.test.signIn('email', EMAIL);
    const refused = await linkEmail().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'method_taken' });
    expect((await listMethods()).methods).toHaveLength(1);
  });

  it('refuses a method the account has already with method_already_linked', async () => {
    const refused = await startLinkCode('sms', PHONE).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'method_already_linked' });
  });

  it("turns a phone number's findability off and on", async () => {
    const [phone] = (await listMethods()).methods;
    await expect(changeFindable(USER, phone!.id, false)).resolves.toMatchObject({
      applied: true,
      value: { id: phone!.id, findable: false },
    });
    expect((await listMethods()).methods[0]!.findable).toBe(false);
    await expect(changeFindable(USER, phone!.id, true)).resolves.toMatchObject({
      applied: true,
      value: { findable: true },
    });
  });

  it('refuses to remove the last method with last_method, then removes one of two', async () => {
    const [phone] = (await listMethods()).methods;
    const refused = await removeSignInMethod(USER, phone!.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'last_method' });

    const linked = await linkEmail();
    if (!linked.applied) throw new Error('the e-mail address was not linked');
    await expect(removeSignInMethod(USER, linked.value.id)).resolves.toEqual({ applied: true, value: true });
    expect((await listMethods()).methods.map((method) => method.value)).toEqual([PHONE]);
    const gone = await removeSignInMethod(USER, linked.value.id).catch((error: unknown) => error);
    expect(gone).toMatchObject({ code: 'not_found' });
  });

  it('removing the method this session signed in with ends this session too', async () => {
    const [phone] = (await listMethods()).methods;
    await linkEmail();
    await expect(removeSignInMethod(USER, phone!.id)).resolves.toEqual({ applied: true, value: true });
    await expect(listMethods()).rejects.toMatchObject({ code: 'unauthorized' });
  });
});

describe('sessions', () => {
  it('lists this browser’s session, marked, and how it signed in', async () => {
    const sessions = await listSessions();
    expect(sessions).toEqual([
      {
        id: expect.any(String),
        device: expect.any(String),
        method: 'phone',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        current: true,
      },
    ]);
  });

  it('ends another session with the proof: its next request is refused', async () => {
    const token = await signInElsewhere();
    const sessions = await listSessions();
    expect(sessions).toHaveLength(2);
    const other = sessions.find((session) => !session.current)!;
    await expect(endOneSession(USER, other.id)).resolves.toEqual({ applied: true, value: true });
    expect((await server.test.get('/api/me', { token })).statusCode).toBe(401);
    expect(await listSessions()).toHaveLength(1);
  });

  it('without the device share, only asks to end it: the other session goes on meanwhile', async () => {
    const token = await signInElsewhere();
    const other = (await listSessions()).find((session) => !session.current)!;
    memory.clear();
    await expect(endOneSession(USER, other.id)).resolves.toMatchObject({
      applied: false,
      reason: 'no-device-share',
      pending: { action: 'end-sessions', status: 'pending' },
    });
    expect((await server.test.get('/api/me', { token })).statusCode).toBe(200);
  });

  it('ends all the others and keeps this one', async () => {
    const first = await signInElsewhere();
    const second = await signInElsewhere();
    await expect(endEveryOtherSession(USER)).resolves.toEqual({ applied: true, value: 2 });
    for (const token of [first, second]) {
      expect((await server.test.get('/api/me', { token })).statusCode).toBe(401);
    }
    expect((await listSessions()).map((session) => session.current)).toEqual([true]);
  });

  it('signs out everywhere: this browser too', async () => {
    const token = await signInElsewhere();
    await expect(signOutEverywhere(USER)).resolves.toEqual({ applied: true, value: true });
    expect((await server.test.get('/api/me', { token })).statusCode).toBe(401);
    const refused = await listSessions().catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'unauthorized' });
  });
});
