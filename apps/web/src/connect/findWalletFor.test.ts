import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findWalletFor } from './findWalletFor';
import { rememberWallet } from './rememberedWallet';
import { announceWallet, memoryStorage } from './testing/announceWallet';
import type { WalletProvider } from './walletProvider';

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

beforeEach(() => {
  vi.stubGlobal('localStorage', memoryStorage());
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A wallet app that answers `eth_accounts` with `accounts` (after `delayMs`) and records what it is asked. */
function app(accounts: readonly string[] | Error, delayMs = 0) {
  const asked: string[] = [];
  const provider: WalletProvider = {
    async request({ method }) {
      asked.push(method);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (accounts instanceof Error) throw accounts;
      return accounts;
    },
  };
  return { provider, asked };
}

function info(uuid: string, rdns: string) {
  return { uuid, name: uuid, icon: null, rdns };
}

describe('findWalletFor', () => {
  it('finds the wallet whose accounts hold the address, whatever their case', async () => {
    const target = new EventTarget();
    const other = app(['0x70997970C51812dc3A010C7d01b50e0d17dc79C8']);
    const holder = app([ADDRESS.toLowerCase()]);
    announceWallet(target, { info: info('other', 'org.other'), provider: other.provider });
    announceWallet(target, { info: info('holder', 'org.holder'), provider: holder.provider });

    const found = await findWalletFor(ADDRESS, target);

    expect(found?.provider).toBe(holder.provider);
    expect([other.asked, holder.asked]).toEqual([['eth_accounts'], ['eth_accounts']]);
  });

  it('asks the wallet app this address signed in with first, when several hold it', async () => {
    rememberWallet(ADDRESS, { name: 'Second', rdns: 'org.second' });
    const target = new EventTarget();
    const first = app([ADDRESS]);
    const second = app([ADDRESS]);
    announceWallet(target, { info: info('first', 'org.first'), provider: first.provider });
    announceWallet(target, { info: info('second', 'org.second'), provider: second.provider });

    expect((await findWalletFor(ADDRESS, target))?.info.uuid).toBe('second');
  });

  it('finds a wallet that announces itself only after the search started', async () => {
    const target = new EventTarget();
    const late = app([ADDRESS]);
    setTimeout(() => announceWallet(target, { info: info('late', 'org.late'), provider: late.provider }), 50);

    expect((await findWalletFor(ADDRESS, target, 300))?.info.uuid).toBe('late');
  });

  it('answers null when no wallet holds the address, one fails, or none is there', async () => {
    const target = new EventTarget();
    announceWallet(target, { info: info('other', 'org.other'), provider: app([]).provider });
    announceWallet(target, {
      info: info('broken', 'org.broken'),
      provider: app(new Error('locked')).provider,
    });

    expect(await findWalletFor(ADDRESS, target, 50)).toBeNull();
    expect(await findWalletFor(ADDRESS, new EventTarget(), 50)).toBeNull();
  });
});
