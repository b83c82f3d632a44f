import type { ReactNode } from 'react';
import { ErrorMessage } from '../ui/ErrorMessage';
import type { WalletSignInStep } from './signInWithWallet';
import { useDiscoveredWallets } from './useDiscoveredWallets';
import type { WalletSignIn } from './useWalletSignIn';
import './connect.css';

interface WalletChoicesProps {
  /** What picking a wallet does: signing in with it, or linking it to the signed-in account (settings). */
  walletSignIn: Pick<WalletSignIn, 'progress' | 'signIn' | 'busy'>;
  /** The list's heading ("Or continue with a wallet" by default). */
  title?: string;
  /** What the wallet's signature is for, in the status line: "sign in" by default, or "link it". */
  purpose?: string;
  /** More ways to connect a wallet, after this browser's wallets (the WalletConnect button). */
  more?: ReactNode;
}

const STEP_TEXT: Record<WalletSignInStep, (name: string, purpose: string) => string> = {
  connecting: (name) => `Waiting for ${name}: allow Dial to see your account.`,
  signing: (name, purpose) => `Waiting for ${name}: sign the message to ${purpose}. It costs nothing.`,
  verifying: () => 'Checking the signature…',
};

/**
 * "Or continue with a wallet": the wallets this browser offers (EIP-6963, or the injected one), each a
 * button that signs in with it (Sign-In with Ethereum), then `more`; what signing in waits for, and why it
 * failed. Nothing when there is no way to connect a wallet.
 */
export function WalletChoices({
  walletSignIn,
  title = 'Or continue with a wallet',
  purpose = 'sign in',
  more,
}: WalletChoicesProps) {
  const wallets = useDiscoveredWallets();
  const { progress, signIn, busy } = walletSignIn;
  if (wallets.length === 0 && more === undefined) return null;

  return (
    <section className="wallet-choices" aria-labelledby="wallet-choices-title">
      <h2 id="wallet-choices-title" className="wallet-choices-title">
        {title}
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
        {more !== undefined && <li>{more}</li>}
      </ul>
      <p className="message" role="status">
        {progress.phase !== 'idle' ? STEP_TEXT[progress.phase](progress.wallet.info.name, purpose) : ''}
      </p>
      {progress.phase === 'idle' && progress.error !== null && <ErrorMessage error={progress.error} />}
    </section>
  );
}
