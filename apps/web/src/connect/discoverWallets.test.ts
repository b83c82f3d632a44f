import { describe, expect, it } from 'vitest';
import { discoverWallets, injectedWallet, readAnnouncement, readIcon } from './discoverWallets';
import { announceWallet } from './testing/announceWallet';
import type { DiscoveredWallet, WalletProvider } from './walletProvider';

const ICON = 'data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=';

function provider(): WalletProvider {
  return { request: async () => null };
}

function watch(target: EventTarget) {
  const seen: (readonly DiscoveredWallet[])[] = [];
  const stop = discoverWallets(target, (wallets) => seen.push(wallets));
  return { seen, stop, latest: () => seen.at(-1) ?? [] };
}

describe('discoverWallets', () => {
  it('lists a wallet that announced before the page listened (it answers the request it dispatches)', () => {
    const target = new EventTarget();
    const early = provider();
    announceWallet(target, {
      info: { uuid: 'a', name: 'Early Wallet', icon: ICON, rdns: 'com.early' },
      provider: early,
    });

    const { latest } = watch(target);
    expect(latest()).toEqual([
      { info: { uuid: 'a', name: 'Early Wallet', icon: ICON, rdns: 'com.early' }, provider: early },
    ]);
  });

  it('adds a wallet that announces later, after those already listed, and lists nothing before', () => {
    const target = new EventTarget();
    const { seen, latest } = watch(target);
    expect(seen).toEqual([]);

    const late = provider();
    announceWallet(target, {
      info: { uuid: 'b', name: 'Late Wallet', icon: ICON, rdns: 'com.late' },
      provider: late,
    });
    announceWallet(target, {
      info: { uuid: 'c', name: 'Later Wallet', icon: ICON, rdns: 'com.later' },
      provider: provider(),
    });
    expect(latest().map((wallet) => wallet.info.name)).toEqual(['Late Wallet', 'Later Wallet']);
    expect(latest()[0]?.provider).toBe(late);
  });

  it('lists a wallet that announces twice (same uuid) once', () => {
    const target = new EventTarget();
    const detail = {
      info: { uuid: 'a', name: 'Twice', icon: ICON, rdns: 'com.twice' },
      provider: provider(),
    };
    announceWallet(target, detail);
    const { seen, latest } = watch(target);
    target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
    expect(latest()).toHaveLength(1);
    // The repeat of the same announcement changes nothing, so it does not re-render the list.
    expect(seen).toHaveLength(1);
  });

  it('stops listening when asked', () => {
    const target = new EventTarget();
    const { seen, stop } = watch(target);
    stop();
    announceWallet(target, {
      info: { uuid: 'a', name: 'After', icon: ICON, rdns: '' },
      provider: provider(),
    });
    expect(seen).toEqual([]);
  });

  it('ignores announcements without a provider, a uuid or a name', () => {
    const target = new EventTarget();
    const { seen } = watch(target);
    announceWallet(target, { info: { uuid: 'a', name: 'No provider', icon: ICON, rdns: '' } });
    announceWallet(target, { info: { uuid: 'b', name: 'Bad provider', icon: ICON, rdns: '' }, provider: {} });
    announceWallet(target, { info: { name: 'No uuid', icon: ICON, rdns: '' }, provider: provider() });
    announceWallet(target, { info: { uuid: 'c', name: '   ', icon: ICON, rdns: '' }, provider: provider() });
    target.dispatchEvent(new CustomEvent('eip6963:announceProvider'));
    expect(seen).toEqual([]);
  });
});

describe('readAnnouncement', () => {
  it('keeps a data:image icon and drops any other (a remote URL would be fetched)', () => {
    const read = (icon: unknown) =>
      readAnnouncement({ info: { uuid: 'a', name: 'W', icon, rdns: 'x' }, provider: provider() })?.info.icon;
    expect(read(ICON)).toBe(ICON);
    expect(read('data:image/png;base64,iVBORw0KGgo=')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(read('https://wallet.example/icon.png')).toBeNull();
    expect(read('//wallet.example/icon.png')).toBeNull();
    expect(read('javascript:alert(1)')).toBeNull();
    expect(read('data:text/html;base64,PHNjcmlwdD4=')).toBeNull();
    expect(read(undefined)).toBeNull();
  });

  it('trims a name and cuts it to 64 characters', () => {
    const wallet = readAnnouncement({
      info: { uuid: 'a', name: `  ${'W'.repeat(100)} `, icon: ICON, rdns: 'x' },
      provider: provider(),
    });
    expect(wallet?.info.name).toBe('W'.repeat(64));
  });
});

describe('readIcon', () => {
  it('drops an icon larger than 100 000 characters', () => {
    expect(readIcon(`data:image/png;base64,${'A'.repeat(100_000)}`)).toBeNull();
  });
});

describe('injectedWallet', () => {
  it('offers window.ethereum as "Browser wallet" when it has request, else nothing', () => {
    const ethereum = provider();
    expect(injectedWallet({ ethereum })).toEqual({
      info: { uuid: 'injected', name: 'Browser wallet', icon: null, rdns: '' },
      provider: ethereum,
    });
    expect(injectedWallet({})).toBeNull();
    expect(injectedWallet({ ethereum: { enable: () => undefined } })).toBeNull();
  });
});
