import { DialError } from '@dial/core';
import { type Hex, hexToString } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiweNonce } from '../api/types';
import type { WalletProvider } from '../connect/walletProvider';
import { withDialServer } from '../keys/testing/dialServer';
import { TEST_WALLET_KEY } from '../keys/testing/testWallet';

/**
 * Linking a browser wallet from settings, against the real server (SIWE checks, link nonces, linking), by
 * an account whose embedded wallet's device share this browser holds (the in-memory stand-in for the
 * IndexedDB store): the link carries the key's proof, so it is made at once.
 */
const memory = await vi.hoisted(async () =>
  (await import('../keys/testing/memoryDeviceStore')).memoryDeviceStore(),
);
vi.mock('../keys/deviceStore', () => ({ deviceStore: memory.store }));
vi.mock('../keys/legacyShares', () => ({ legacyShares: memory.legacyStore }));

const { deviceStore } = await import('../keys/deviceStore');
const { listMethods } = await import('./accountApi');
const { linkWalletMethod: linkWith } = await import('./linkWalletMethod');

const dialServer = withDialServer();
const linkWalletMethod = (provider: WalletProvider, onStep: (step: string) => void) =>
  linkWith(dialServer().userId, provider, onStep);

beforeEach(async () => {
  // The message's issued-at is this browser's time: the server's clock is the test's.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(dialServer().test.clock.now());
  memory.clear();
  const { userId } = dialServer();
  const { device } = await dialServer().register(TEST_WALLET_KEY);
  await deviceStore.save(userId, device);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** A wallet app for the test: a fresh key answering as an EIP-1193 provider; `refuse` answers 4001. */
function testWallet(refuse: readonly string[] = []) {
  const account = privateKeyToAccount(generatePrivateKey());
  const calls: { method: string; params: unknown }[] = [];
  const provider: WalletProvider = {
    async request({ method, params }) {
      calls.push({ method, params });
      if (refuse.includes(method)) throw Object.assign(new Error('User rejected'), { code: 4001 });
      switch (method) {
        case 'eth_requestAccounts':
          return [account.address];
        case 'eth_chainId':
          return '0x1';
        case 'personal_sign': {
          const [message] = params as [Hex, string];
          return account.signMessage({ message: { raw: message } });
        }
        default:
          throw Object.assign(new Error('Unsupported'), { code: 4200 });
      }
    },
  };
  return { account, calls, provider };
}

describe('linkWalletMethod', () => {
  it('links the wallet that signed a message carrying a link nonce of this session', async () => {
    const wallet = testWallet();
    const steps: string[] = [];
    const outcome = await linkWalletMethod(wallet.provider, (step) => steps.push(step));

    expect(outcome).toMatchObject({
      applied: true,
      value: { kind: 'wallet', value: wallet.account.address, findable: null, trusted: true },
    });
    expect(steps).toEqual(['connecting', 'signing', 'verifying']);
    expect(wallet.calls.map((call) => call.method)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'personal_sign',
    ]);
    const server = dialServer();
    const nonce = server.answers.find((answer) => answer.route === 'POST /api/auth/methods/wallet/nonce')!
      .body as SiweNonce;
    const signed = hexToString((wallet.calls[2]!.params as [Hex])[0]);
    expect(signed).toContain(`\nNonce: ${nonce.nonce}\n`);
    expect(signed).toContain(`\n${wallet.account.address}\n`);
    expect((await listMethods()).methods.map((each) => each.kind)).toEqual(['phone', 'wallet']);
  });

  it('only asks to link it when this browser holds no device share: it waits', async () => {
    memory.clear();
    const wallet = testWallet();
    const outcome = await linkWalletMethod(wallet.provider, () => undefined);
    expect(outcome).toMatchObject({
      applied: false,
      reason: 'no-device-share',
      pending: { action: 'link-method', status: 'pending' },
    });
    expect(dialServer().count('POST /api/auth/methods/wallet', 202)).toBe(1);
    expect((await listMethods()).methods).toHaveLength(1);
  });

  it('links nothing when the person declines to sign', async () => {
    const wallet = testWallet(['personal_sign']);
    const refused = await linkWalletMethod(wallet.provider, () => undefined).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'user_rejected' });
    expect(dialServer().count('POST /api/auth/methods/wallet')).toBe(0);
    expect((await listMethods()).methods).toHaveLength(1);
  });

  it("refuses another account's wallet with method_taken", async () => {
    const wallet = testWallet();
    // Another person signs up with the wallet first (Sign-In with Ethereum, in their own browser).
    const { test } = dialServer();
    const nonce = (await test.post('/api/auth/siwe/nonce')).json<SiweNonce>();
    const message = createSiweMessage({
      address: wallet.account.address,
      chainId: nonce.chainIds[0]!,
      domain: nonce.domain,
      uri: nonce.uri,
      nonce: nonce.nonce,
      statement: nonce.statement,
      version: '1',
      issuedAt: test.clock.now(),
    });
    const signature = await wallet.account.signMessage({ message });
    expect((await test.post('/api/auth/siwe/verify', { message, signature })).statusCode).toBe(200);

    const refused = await linkWalletMethod(wallet.provider, () => undefined).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DialError);
    expect(refused).toMatchObject({ code: 'method_taken' });
    expect((await listMethods()).methods).toHaveLength(1);
  });
});
