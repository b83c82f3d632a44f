import { createEmbeddedProvider, type DialError, isDialError } from '@dial/core';
import {
  type LocalChain,
  startLocalChain,
  DEV_FAUCET_ADDRESS as WALLET_ADDRESS,
  DEV_FAUCET_PRIVATE_KEY as WALLET_KEY,
} from '@dial/devchain/localChain';
import { type Chain, numberToHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { keepConnectedWallet } from './connectedWallets';
import { rememberWallet } from './rememberedWallet';
import { sendWithWallet } from './sendWithWallet';
import { announceWallet, memoryStorage } from './testing/announceWallet';
import { WALLETCONNECT_INFO, type WalletProvider } from './walletProvider';

const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const OTHER_ACCOUNT = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const INFO = { uuid: 'test-wallet', name: 'Test Wallet', icon: null, rdns: 'org.example.testwallet' };

let home: LocalChain;
let other: LocalChain;
let target: EventTarget;

beforeAll(async () => {
  [home, other] = await Promise.all([startLocalChain(31337), startLocalChain(31338)]);
});

beforeEach(() => {
  target = new EventTarget();
  vi.stubGlobal('window', target);
  vi.stubGlobal('localStorage', memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * A wallet app holding `key` (the funded test key by default) on the two local chains (core's EIP-1193
 * provider over the real chains), recording the methods it is asked; `change` may answer a method first.
 */
function walletApp(
  options: {
    chainId?: number;
    change?: (method: string, params: unknown) => unknown;
    key?: `0x${string}`;
  } = {},
) {
  const account = privateKeyToAccount(options.key ?? WALLET_KEY);
  const chains = [home.chain, other.chain];
  const provider = createEmbeddedProvider({
    address: account.address,
    chains,
    chainId: options.chainId ?? home.chain.id,
    getAccount: async () => account,
    transport: (chain) => (chain.id === home.chain.id ? home.request : other.request),
  });
  const methods: string[] = [];
  const wallet: WalletProvider = {
    async request({ method, params }) {
      methods.push(method);
      const changed = options.change?.(method, params);
      if (changed instanceof Error) throw changed;
      if (changed !== undefined) return changed;
      return provider.request({ method, params } as Parameters<typeof provider.request>[0]);
    },
  };
  return { wallet, methods };
}

function providerError(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function transfer(value: bigint) {
  return { from: WALLET_ADDRESS, to: RECIPIENT, value: numberToHex(value) };
}

async function balanceOf(chain: LocalChain, address: string): Promise<bigint> {
  return BigInt((await chain.request({ method: 'eth_getBalance', params: [address, 'latest'] })) as string);
}

async function sentTo(chain: LocalChain, hash: string): Promise<{ to: string; value: string }> {
  return (await chain.request({ method: 'eth_getTransactionByHash', params: [hash] })) as {
    to: string;
    value: string;
  };
}

describe('sendWithWallet', () => {
  it('finds, among the wallets announced, the one holding the address, and sends through it', async () => {
    // Another wallet app of the browser holds another account: it is asked, then passed over.
    const otherApp = walletApp({
      change: (method) => (method === 'eth_accounts' ? [OTHER_ACCOUNT] : undefined),
    });
    announceWallet(target, { info: { ...INFO, uuid: 'other', name: 'Other' }, provider: otherApp.wallet });
    const app = walletApp();
    announceWallet(target, { info: INFO, provider: app.wallet });
    const before = await balanceOf(home, RECIPIENT);

    const hash = await sendWithWallet(WALLET_ADDRESS, home.chain, transfer(1234n));

    expect(otherApp.methods).toEqual(['eth_accounts']);
    expect(app.methods).toEqual(['eth_accounts', 'eth_chainId', 'eth_sendTransaction']);
    expect(await balanceOf(home, RECIPIENT)).toBe(before + 1234n);
    const sent = await sentTo(home, hash);
    expect([sent.to.toLowerCase(), BigInt(sent.value)]).toEqual([RECIPIENT.toLowerCase(), 1234n]);
  });

  it('finds the injected window.ethereum when no wallet announces itself', async () => {
    const app = walletApp();
    (target as EventTarget & { ethereum?: WalletProvider }).ethereum = app.wallet;

    const hash = await sendWithWallet(WALLET_ADDRESS, home.chain, transfer(7n));

    expect(app.methods).toContain('eth_sendTransaction');
    expect(BigInt((await sentTo(home, hash)).value)).toBe(7n);
  });

  it('sends through a wallet connected in this page (WalletConnect), which no announcement finds', async () => {
    // An account of its own: the page keeps this wallet for it for the rest of the file.
    const key = generatePrivateKey();
    const { address } = privateKeyToAccount(key);
    await home.request({ method: 'hardhat_setBalance', params: [address, numberToHex(10n ** 18n)] });
    const app = walletApp({ key });
    keepConnectedWallet(address.toLowerCase(), { info: WALLETCONNECT_INFO, provider: app.wallet });
    const before = await balanceOf(home, RECIPIENT);

    await sendWithWallet(address, home.chain, { ...transfer(11n), from: address });

    expect(app.methods).toEqual(['eth_chainId', 'eth_sendTransaction']);
    expect(await balanceOf(home, RECIPIENT)).toBe(before + 11n);
  });

  it('switches the wallet to the transfer’s network first when it is on another', async () => {
    const app = walletApp({ chainId: other.chain.id });
    announceWallet(target, { info: INFO, provider: app.wallet });
    const before = await balanceOf(home, RECIPIENT);

    await sendWithWallet(WALLET_ADDRESS, home.chain, transfer(5n));

    expect(app.methods).toEqual([
      'eth_accounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_sendTransaction',
    ]);
    expect(await balanceOf(home, RECIPIENT)).toBe(before + 5n);
  });

  it('asks with wallet_sendTransaction when the wallet answers eth_sendTransaction with 4200', async () => {
    const app = walletApp({
      change: (method) =>
        method === 'eth_sendTransaction'
          ? providerError(4200, 'eth_sendTransaction is not supported')
          : undefined,
    });
    announceWallet(target, { info: INFO, provider: app.wallet });
    const before = await balanceOf(home, RECIPIENT);

    await sendWithWallet(WALLET_ADDRESS, home.chain, transfer(9n));

    expect(app.methods.slice(-2)).toEqual(['eth_sendTransaction', 'wallet_sendTransaction']);
    expect(await balanceOf(home, RECIPIENT)).toBe(before + 9n);
  });

  it('says which wallet app to open when no wallet of this browser holds the address', async () => {
    rememberWallet(WALLET_ADDRESS, INFO);
    const otherApp = walletApp({
      change: (method) => (method === 'eth_accounts' ? [OTHER_ACCOUNT] : undefined),
    });
    announceWallet(target, { info: { ...INFO, uuid: 'other', name: 'Other' }, provider: otherApp.wallet });

    const error = await sendWithWallet(WALLET_ADDRESS, home.chain, transfer(1n)).catch((caught) => caught);

    expect(isDialError(error, 'wallet_not_found')).toBe(true);
    expect((error as DialError).message).toBe(
      'Test Wallet is not available in this browser. Open Dial in the browser with Test Wallet, or connect it.',
    );
    expect(otherApp.methods).toEqual(['eth_accounts']);
  });

  it('says a WalletConnect connection ended when the address signed in through one and none is kept', async () => {
    rememberWallet(OTHER_ACCOUNT, WALLETCONNECT_INFO);

    const error = await sendWithWallet(OTHER_ACCOUNT, home.chain, transfer(1n)).catch((caught) => caught);

    expect(isDialError(error, 'wallet_not_found')).toBe(true);
    expect((error as DialError).message).toBe(
      'Your wallet is no longer connected: a WalletConnect connection ends when Dial is reloaded or closed. Sign in with it again through WalletConnect, then send.',
    );
  });

  it('refuses with user_rejected, sending nothing, when the person declines the network switch', async () => {
    const app = walletApp({
      chainId: other.chain.id,
      change: (method) =>
        method === 'wallet_switchEthereumChain'
          ? providerError(4001, 'User rejected the request.')
          : undefined,
    });
    announceWallet(target, { info: INFO, provider: app.wallet });

    const error = await sendWithWallet(WALLET_ADDRESS, home.chain, transfer(1n)).catch((caught) => caught);

    expect(isDialError(error, 'user_rejected')).toBe(true);
    expect(app.methods).not.toContain('eth_sendTransaction');
  });

  it('names the network to switch to when the wallet cannot switch (and has no RPC to add it with)', async () => {
    const app = walletApp({ chainId: other.chain.id });
    announceWallet(target, { info: INFO, provider: app.wallet });
    const unknown: Chain = {
      ...home.chain,
      id: 999_999,
      name: 'Elsewhere',
      rpcUrls: { default: { http: [] } },
    };

    const error = await sendWithWallet(WALLET_ADDRESS, unknown, transfer(1n)).catch((caught) => caught);

    expect(isDialError(error, 'unsupported_chain')).toBe(true);
    expect((error as DialError).message).toContain('Switch it to Elsewhere');
    expect(app.methods).not.toContain('eth_sendTransaction');
  });
});
