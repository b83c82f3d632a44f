import { DialError } from '@dial/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OpenedWallet, OpenWalletStage, WalletToRecover } from '../keys/openWallet';
import type { OpenWalletState } from './walletOpening';

/**
 * An opening follows `openWallet` (mocked here: its own tests cover the shares) through its stages, so a
 * screen that subscribes after it began sees where it stands and everything after.
 */
type Result = OpenedWallet | WalletToRecover;
const calls: Array<{
  userId: string;
  onStage: (stage: OpenWalletStage) => void;
  onOpened?: ((wallet: OpenedWallet) => void) | undefined;
  resolve: (result: Result) => void;
  reject: (error: unknown) => void;
}> = [];
vi.mock('../keys/openWallet', () => ({
  openWallet: (
    userId: string,
    onStage: (stage: OpenWalletStage) => void,
    onOpened?: (wallet: OpenedWallet) => void,
  ) =>
    new Promise<Result>((resolve, reject) => {
      calls.push({ userId, onStage, onOpened, resolve, reject });
    }),
}));
const { startWalletOpening } = await import('./walletOpening');

const WALLET: OpenedWallet = {
  address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  generation: 2,
  recovery: null,
  deviceId: '2b1f0c3e-6d1a-4c52-9a0e-4f3a2d1c0b9e',
};
/** Lets the opening's promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  calls.length = 0;
});

describe('an opening of the wallet', () => {
  it('starts at once, and a later subscriber sees where it stands and each state after', async () => {
    const opening = startWalletOpening('user-1');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.userId).toBe('user-1');
    expect(opening.userId).toBe('user-1');
    calls[0]!.onStage('creating');
    expect(opening.state()).toEqual({ status: 'creating' });

    const seen: OpenWalletState[] = [];
    const stop = opening.subscribe((state) => seen.push(state));
    calls[0]!.resolve(WALLET);
    await settle();
    expect(seen).toEqual([{ status: 'ready', wallet: WALLET }]);
    expect(opening.state()).toEqual({ status: 'ready', wallet: WALLET });

    stop();
    calls[0]!.onStage('opening');
    expect(seen).toHaveLength(1);
  });

  it('is ready as soon as the key is rebuilt, and stays ready when tidying the old shares fails', async () => {
    const opening = startWalletOpening('user-1');
    const seen: OpenWalletState[] = [];
    opening.subscribe((state) => seen.push(state));
    calls[0]!.onOpened?.(WALLET);
    expect(opening.state()).toEqual({ status: 'ready', wallet: WALLET });
    calls[0]!.reject(new DialError('internal_error'));
    await settle();
    expect(seen).toEqual([{ status: 'ready', wallet: WALLET }]);
  });

  it('does not announce the same wallet twice when the promise settles after the key was rebuilt', async () => {
    const opening = startWalletOpening('user-1');
    const seen: OpenWalletState[] = [];
    opening.subscribe((state) => seen.push(state));
    calls[0]!.onOpened?.(WALLET);
    calls[0]!.resolve(WALLET);
    await settle();
    expect(seen).toHaveLength(1);
  });

  it('fails with the catalogue error when the wallet cannot be opened', async () => {
    const opening = startWalletOpening('user-1');
    calls[0]!.reject(new DialError('wallet_mismatch'));
    await settle();
    expect(opening.state()).toMatchObject({ status: 'failed', error: { code: 'wallet_mismatch' } });
  });

  it('hands a wallet this browser is no device of (here: removed) to recovery', async () => {
    const opening = startWalletOpening('user-1');
    const toRecover: WalletToRecover = {
      needsRecovery: true,
      removed: true,
      wallet: {
        address: WALLET.address,
        generation: 2,
        recovery: null,
        devices: 1,
        legacyAuthShare: null,
      },
    };
    calls[0]!.resolve(toRecover);
    await settle();
    expect(opening.state()).toEqual({ status: 'recover', toRecover });
  });
});
