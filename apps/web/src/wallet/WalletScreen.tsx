import type { DialError } from '@dial/core';
import { useEffect } from 'react';
import type { AppConfig, User } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { StatusScreen } from '../ui/StatusScreen';
import { useOpenWallet } from './useOpenWallet';
import { useSignOut } from './useSignOut';
import { WalletHome } from './WalletHome';

export interface WalletScreenProps {
  user: User;
  config: AppConfig;
  onSignedOut(): void;
}

/** The signed-in part of the app (a lazy chunk): opens or creates the wallet, then shows it. */
export default function WalletScreen({ user, config, onSignedOut }: WalletScreenProps) {
  const { state, retry } = useOpenWallet(user.id);
  const sessionEnded = state.status === 'failed' && state.error.code === 'unauthorized';

  // The session ended meanwhile (expired, or signed out in another tab): back to sign-in.
  useEffect(() => {
    if (sessionEnded) onSignedOut();
  }, [sessionEnded, onSignedOut]);

  switch (state.status) {
    case 'opening':
      return <StatusScreen message="Opening your wallet…" />;
    case 'creating':
      return <StatusScreen message="Setting up your wallet…" />;
    case 'failed':
      return <WalletProblem error={state.error} onRetry={retry} onSignedOut={onSignedOut} />;
    case 'ready':
      return (
        <WalletHome user={user} config={config} address={state.wallet.address} onSignedOut={onSignedOut} />
      );
  }
}

interface WalletProblemProps {
  error: DialError;
  onRetry(): void;
  onSignedOut(): void;
}

/** The wallet could not be opened: say why, offer what can help. */
function WalletProblem({ error, onRetry, onSignedOut }: WalletProblemProps) {
  const { signOut, pending, error: signOutError } = useSignOut(onSignedOut);
  // Trying again cannot bring back a share this browser does not hold or fix a mismatch.
  const canRetry = error.code !== 'device_share_missing' && error.code !== 'wallet_mismatch';

  return (
    <Screen title="Wallet not opened">
      <ErrorMessage error={signOutError ?? error} />
      <div className="actions">
        {canRetry && (
          <button type="button" className="button button-primary" onClick={onRetry}>
            Try again
          </button>
        )}
        <button
          type="button"
          className={canRetry ? 'button button-secondary' : 'button button-primary'}
          onClick={() => void signOut()}
          disabled={pending}
        >
          {pending ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
    </Screen>
  );
}
