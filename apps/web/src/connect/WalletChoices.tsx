import { useRef, useState } from 'react';
import type { User } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { rememberWallet } from './rememberedWallet';
import type { WalletSignInStep } from './signInWithWallet';
import { useDiscoveredWallets } from './useDiscoveredWallets';
import type { DiscoveredWallet } from './walletProvider';
import './connect.css';

interface WalletChoicesProps {
  onSignedIn(user: User): void;
}

type Progress = { phase: 'idle'; error: unknown } | { phase: WalletSignInStep; wallet: DiscoveredWallet };

const STEP_TEXT: Record<WalletSignInStep, (name: string) => string> = {
  connecting: (name) => `Waiting for ${name}: allow Dial to see your account.`,
  signing: (name) => `Waiting for ${name}: sign the message to sign in. It costs nothing.`,
  verifying: () => 'Checking the signature…',
};

/**
 * "Or continue with a wallet": the wallets this browser offers (EIP-6963, or the injected one), each a
 * button that signs in with it (Sign-In with Ethereum). The signing code is fetched when one is picked.
 */
export function WalletChoices({ onSignedIn }: WalletChoicesProps) {
  const wallets = useDiscoveredWallets();
  const [progress, setProgress] = useState<Progress>({ phase: 'idle', error: null });
  const running = useRef(false);

  // INTEGRATION(walletconnect): when `/api/config` has `walletConnect`, a "WalletConnect" button here
  // lazily renders `../walletconnect/WalletConnectSignIn`; its `onConnected({ address, chainId, request })`
  // calls `signIn({ info: { uuid: 'walletconnect', name: 'WalletConnect', icon: null, rdns: '' },
  // provider: { request } }, { address, chainId })`.
  const signIn = async (wallet: DiscoveredWallet, known?: { address: string; chainId?: number }) => {
    if (running.current) return;
    running.current = true;
    setProgress({ phase: 'connecting', wallet });
    try {
      const { signInWithWallet } = await import('./signInWithWallet');
      const { verified, address } = await signInWithWallet(
        wallet.provider,
        (step) => setProgress({ phase: step, wallet }),
        known,
      );
      rememberWallet(address, wallet.info);
      onSignedIn(verified.user);
    } catch (error) {
      setProgress({ phase: 'idle', error });
    } finally {
      running.current = false;
    }
  };

  if (wallets.length === 0) return null;
  const busy = progress.phase !== 'idle';

  return (
    <section className="wallet-choices" aria-labelledby="wallet-choices-title">
      <h2 id="wallet-choices-title" className="wallet-choices-title">
        Or continue with a wallet
      </h2>
      <ul className="wallet-list">
        {wallets.map((wallet) => (
          <li key={wallet.info.uuid}>
            <button
              type="button"
              className="button button-secondary wallet-button"
              aria-disabled={busy}
              onClick={() => {
                if (!busy) void signIn(wallet);
              }}
            >
              {wallet.info.icon !== null ? (
                <img className="wallet-icon" src={wallet.info.icon} alt="" width={24} height={24} />
              ) : (
                <span className="wallet-icon wallet-icon-blank" aria-hidden="true" />
              )}
              {wallet.info.name}
            </button>
          </li>
        ))}
      </ul>
      <p className="message" role="status">
        {busy ? STEP_TEXT[progress.phase](progress.wallet.info.name) : ''}
      </p>
      {progress.phase === 'idle' && progress.error !== null && <ErrorMessage error={progress.error} />}
    </section>
  );
}
