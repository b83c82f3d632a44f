import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type DialServer, withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_KEY } from '../keys/testing/testWallet';

/**
 * `cancelLinkQuietly`, which both sides of a QR link call when the person leaves it, against the real server
 * (its link routes and database) through the stubbed fetch, signed in with a registered wallet.
 */
const { getDeviceLink } = await import('./devicesApi');
const { cancelLinkQuietly, startLink } = await import('./linkFlow');

const dialServer = withDialServer();
let server: DialServer;

beforeEach(async () => {
  server = dialServer();
  await server.register(TEST_WALLET_KEY);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('cancelLinkQuietly', () => {
  it('cancels a link that is waiting, so the other browser is told nothing was shared', async () => {
    const link = await startLink();
    await cancelLinkQuietly(link.id);
    expect((await getDeviceLink(link.id)).state).toBe('cancelled');
  });

  it('resolves when the server refuses the cancel (a link it does not know)', async () => {
    const before = server.answers.length;
    await expect(cancelLinkQuietly('00000000-0000-4000-8000-000000000000')).resolves.toBeUndefined();
    // It was asked, and it said no: the refusal is what was swallowed.
    expect(server.answers.slice(before).map((answer) => answer.status)).toEqual([404]);
  });

  it('resolves when the request does not get through', async () => {
    const link = await startLink();
    server.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(cancelLinkQuietly(link.id)).resolves.toBeUndefined();
    // Nothing reached the server: the link still waits, and expires by itself.
    expect((await getDeviceLink(link.id)).state).toBe('waiting');
  });

  it('asks nothing when no link was made yet', async () => {
    const before = server.fetch.mock.calls.length;
    await cancelLinkQuietly(null);
    expect(server.fetch.mock.calls.length).toBe(before);
  });
});
