import { DialError } from '@dial/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PHONE } from '../../../server/test/testApp';
import { type DialServer, withDialServer } from '../keys/testing/dialServer';
import {
  endOtherSessions,
  endSession,
  listMethods,
  listSessions,
  logoutEverywhere,
  removeMethod,
  setFindable,
  startLinkCode,
  verifyLinkCode,
} from './accountApi';
import { linkCodeRoutes } from './linkCodeRoutes';

/**
 * The settings screen's requests, sent to the real server (its routes, database and rules) through the
 * stubbed fetch, with a user signed in by phone.
 */
const dialServer = withDialServer();
let server: DialServer;

beforeEach(() => {
  server = dialServer();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const EMAIL = 'ada@example.com';

/** Links `EMAIL` to the signed-in account through the code it is sent, as the settings screen does. */
async function linkEmail() {
  const started = await startLinkCode('email', EMAIL);
  return verifyLinkCode('email', started.to, server.test.transport.lastCode(started.to));
}

/** Signs the same person in from another browser (by the same phone); returns that session's token. */
async function signInElsewhere(): Promise<string> {
  // The phone's next code may be sent once the resend wait is over.
  server.test.clock.advance(5 * 60_000);
  const { token } = await server.test.signIn('sms', PHONE);
  return token;
}

describe('sign-in methods', () => {
  it('lists the phone number the person signed in with, in full and findable, and the cap', async () => {
    const { methods, maxMethods } = await listMethods();
    expect(maxMethods).toBe(server.test.config.maxSignInMethods);
    expect(methods).toEqual([
      { id: expect.any(String), kind: 'phone', value: PHONE, findable: true, createdAt: expect.any(String) },
    ]);
  });

  it('links an e-mail address by the code sent to it', async () => {
    const linked = await linkEmail();
    expect(linked).toMatchObject({ kind: 'email', value: EMAIL, findable: null });
    const { methods } = await listMethods();
    expect(methods.map((method) => method.value)).toEqual([PHONE, EMAIL]);
  });

  it('refuses a wrong code with invalid_code and links nothing', async () => {
    const { to } = await linkCodeRoutes.send('email', EMAIL, { onChecking: () => undefined });
    const right = server.test.transport.lastCode(to);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await linkCodeRoutes.verify('email', to, wrong).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'invalid_code' });
    expect((await listMethods()).methods).toHaveLength(1);
  });

  it("refuses another account's e-mail address with method_taken once the code proves it", async () => {
    await server.test.signIn('email', EMAIL);
    const { to } = await startLinkCode('email', EMAIL);
    const refused = await verifyLinkCode('email', to, server.test.transport.lastCode(to)).catch(
      (error: unknown) => error,
    );
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
    await expect(setFindable(phone!.id, false)).resolves.toMatchObject({ id: phone!.id, findable: false });
    expect((await listMethods()).methods[0]!.findable).toBe(false);
    await expect(setFindable(phone!.id, true)).resolves.toMatchObject({ findable: true });
  });

  it('refuses to remove the last method with last_method, then removes one of two', async () => {
    const [phone] = (await listMethods()).methods;
    const refused = await removeMethod(phone!.id).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'last_method' });

    await linkEmail();
    await removeMethod(phone!.id);
    expect((await listMethods()).methods.map((method) => method.value)).toEqual([EMAIL]);
    const gone = await removeMethod(phone!.id).catch((error: unknown) => error);
    expect(gone).toMatchObject({ code: 'not_found' });
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

  it('ends another session: its next request is refused', async () => {
    const token = await signInElsewhere();
    const sessions = await listSessions();
    expect(sessions).toHaveLength(2);
    const other = sessions.find((session) => !session.current)!;
    await endSession(other.id);
    expect((await server.test.get('/api/me', { token })).statusCode).toBe(401);
    expect(await listSessions()).toHaveLength(1);
  });

  it('ends all the others and keeps this one', async () => {
    const first = await signInElsewhere();
    const second = await signInElsewhere();
    await expect(endOtherSessions()).resolves.toBe(2);
    for (const token of [first, second]) {
      expect((await server.test.get('/api/me', { token })).statusCode).toBe(401);
    }
    expect((await listSessions()).map((session) => session.current)).toEqual([true]);
  });

  it('signs out everywhere: this browser too', async () => {
    const token = await signInElsewhere();
    await logoutEverywhere();
    expect((await server.test.get('/api/me', { token })).statusCode).toBe(401);
    const refused = await listSessions().catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'unauthorized' });
  });
});
