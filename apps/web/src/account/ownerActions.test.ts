import { PHONE } from '@dial/server/testing';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DialServer, withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_KEY } from '../keys/testing/testWallet';

/**
 * The owner's answers to a stolen session, against the real server: cancelling what it asked for and
 * "Secure my account", proved with the key rebuilt from this browser's device share (the in-memory
 * stand-in for the IndexedDB store).
 */
const memory = await vi.hoisted(async () =>
  (await import('../keys/testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('../keys/deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('../keys/legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { deviceStore } = await import('../keys/deviceStore');
const { listAccountChanges } = await import('./accountChangesApi');
const { cancelPendingChange, secureMyAccount } = await import('./ownerActions');

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

const THIEF_EMAIL = 'mallory@example.com';

/**
 * A thief with the owner's phone code signs in elsewhere and asks, without proof, to link their own
 * e-mail address and to end the owner's sessions. Returns the thief's session token.
 */
async function stolenSession(): Promise<string> {
  server.test.clock.advance(5 * 60_000);
  const { token } = await server.test.signIn('sms', PHONE);
  await server.test.post('/api/auth/methods/code', { channel: 'email', to: THIEF_EMAIL }, { token });
  const code = server.test.transport.lastCode(THIEF_EMAIL);
  const link = await server.test.post(
    '/api/auth/methods/code/verify',
    { channel: 'email', to: THIEF_EMAIL, code },
    { token },
  );
  expect(link.statusCode).toBe(202);
  const end = await server.test.post('/api/auth/sessions/end-others', {}, { token });
  expect(end.statusCode).toBe(202);
  return token;
}

describe('the owner answers a stolen session', () => {
  it('sees what the other session asked for, and cancels it with the key’s proof', async () => {
    await stolenSession();
    const { changes } = await listAccountChanges();
    expect(changes.map((change) => [change.action, change.status, change.requestedHere])).toEqual(
      expect.arrayContaining([
        ['link-method', 'pending', false],
        ['end-sessions', 'pending', false],
      ]),
    );
    const link = changes.find((change) => change.action === 'link-method')!;
    expect(link.summary).toContain(THIEF_EMAIL);

    await expect(cancelPendingChange(USER, link.id)).resolves.toMatchObject({
      id: link.id,
      status: 'cancelled',
    });
    const again = await cancelPendingChange(USER, link.id).catch((error: unknown) => error);
    expect(again).toMatchObject({ code: 'change_not_pending' });
  });

  it('cannot cancel without the device share: account_proof_required, saying why', async () => {
    await stolenSession();
    const [change] = (await listAccountChanges()).changes;
    memory.clear();
    const refused = await cancelPendingChange(USER, change!.id).catch((error: unknown) => error);
    expect(refused).toMatchObject({
      code: 'account_proof_required',
      message: expect.stringContaining('is not one of the devices that open your wallet'),
    });
  });

  it('"Secure my account" ends the thief’s session and cancels what it asked for', async () => {
    const thief = await stolenSession();
    await expect(secureMyAccount(USER)).resolves.toMatchObject({ endedSessions: 1, cancelledChanges: 2 });
    expect((await server.test.get('/api/me', { token: thief })).statusCode).toBe(401);
    const { changes } = await listAccountChanges();
    expect(changes.map((change) => change.status)).toEqual(['cancelled', 'cancelled']);
  });
});
