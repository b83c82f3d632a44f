import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { AppConfig, User } from './api/types';
import type { WalletScreenProps } from './wallet/WalletScreen';

/**
 * After sign-in the app renders the wallet screen. Once its chunk has loaded (preloaded while the code was
 * typed, or at start on a return visit), that render must not suspend: a suspending lazy component shows
 * its placeholder ("Opening your wallet…") until its code is there, a flash between sign-in and the wallet
 * (on React, for at least 300 ms). The app is rendered here as it is after sign-in (the session signed in;
 * the wallet screen's module a stand-in, since its effects need a browser). React's synchronous
 * `renderToString` renders a suspending boundary's fallback, the placeholder itself, so the HTML says which
 * of the two a browser would show first.
 */
const USER = { id: 'user-1' } as User;
vi.mock('./session/useSession', () => ({
  useSession: () => ({
    session: { status: 'signed-in', user: USER, config: {} as AppConfig },
    signedIn: () => {},
    signedOut: () => {},
    retry: () => {},
  }),
}));
vi.mock('./wallet/WalletScreen', () => ({
  default: ({ user }: WalletScreenProps) => createElement('p', null, `The wallet of ${user.id}`),
}));

/** The app and the wallet screen's loader as a page starts with them: fresh modules, nothing loaded. */
async function freshApp() {
  vi.resetModules();
  const { App } = await import('./App');
  const { loadWalletScreen, loadedWalletScreen } = await import('./wallet/loadWalletScreen');
  return { App, loadWalletScreen, loadedWalletScreen };
}

describe('the wallet screen after sign-in', () => {
  it('suspends (the placeholder shows) while its code is not here yet', async () => {
    const { App, loadedWalletScreen } = await freshApp();
    expect(loadedWalletScreen()).toBeNull();
    const html = renderToString(createElement(App));
    expect(html).toContain('Opening your wallet…');
    expect(html).not.toContain('The wallet of user-1');
  });

  it('renders at once, with no placeholder, when its code loaded before sign-in ended', async () => {
    const { App, loadWalletScreen } = await freshApp();
    // Preloaded while the code was typed; the app renders the wallet screen for the first time after.
    await loadWalletScreen();
    const html = renderToString(createElement(App));
    expect(html).toContain('The wallet of user-1');
    expect(html).not.toContain('Opening your wallet…');
  });

  it('loads its code once, however often it is asked for', async () => {
    const { loadWalletScreen, loadedWalletScreen } = await freshApp();
    expect(loadWalletScreen()).toBe(loadWalletScreen());
    expect((await loadWalletScreen()).default).toBe(loadedWalletScreen());
  });
});
