import type { DialError } from '@dial/core';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { AppConfig, StoredWallet, User } from '../api/types';
import { type WalletSecurity, WalletSecurityContext } from '../recovery/walletSecurity';
import { useSignOut } from '../session/useSignOut';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { StatusScreen } from '../ui/StatusScreen';
import { useOpenWallet } from './useOpenWallet';
import { WalletHome } from './WalletHome';

export interface WalletScreenProps {
  user: User;
  config: AppConfig;
  onSignedOut(): void;
}

// Recovery, its setup and export bring the KDF and WebAuthn code: their own chunks, loaded when needed.
const RecoverWallet = lazy(() => import('../recovery/RecoverWallet'));
const RecoverySetup = lazy(() => import('../recovery/RecoverySetup'));
const ExportKey = lazy(() => import('../export/ExportKey'));

type View = 'home' | 'recovery-setup' | 'export';

/**
 * The signed-in part of the app (a lazy chunk): opens or creates the wallet, then shows it; recovers it
 * when this browser holds no share of its current keys; and switches to the recovery setup and export
 * screens from the wallet home.
 */
export default function WalletScreen({ user, config, onSignedOut }: WalletScreenProps) {
  const { state, retry } = useOpenWallet(user.id);
  const sessionEnded = state.status === 'failed' && state.error.code === 'unauthorized';
  const [view, setView] = useState<View>('home');
  const [reminderDismissed, setReminderDismissed] = useState(false);
  const [notice, setNotice] = useState('');
  /** The recovery status after a change on this screen (the opened wallet's until then). */
  const [changedRecovery, setChangedRecovery] = useState<StoredWallet['recovery'] | undefined>(undefined);
  const recovery =
    changedRecovery !== undefined ? changedRecovery : state.status === 'ready' ? state.wallet.recovery : null;

  const security = useMemo<WalletSecurity>(
    () => ({
      recovery,
      reminderDismissed,
      notice,
      dismissReminder: () => setReminderDismissed(true),
      openRecoverySetup: () => {
        setNotice('');
        setView('recovery-setup');
      },
      openExport: () => {
        setNotice('');
        setView('export');
      },
    }),
    [recovery, reminderDismissed, notice],
  );

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
    case 'recover':
      return (
        <Suspense fallback={<StatusScreen message="Loading…" />}>
          <RecoverWallet
            user={user}
            toRecover={state.toRecover}
            onRecovered={retry}
            onSignedOut={onSignedOut}
          />
        </Suspense>
      );
    case 'ready':
      if (view === 'recovery-setup') {
        return (
          <Suspense fallback={<StatusScreen message="Loading…" />}>
            <RecoverySetup
              user={user}
              current={recovery}
              onDone={(next) => {
                setChangedRecovery(next);
                setNotice(recovery === null ? 'Recovery is set up.' : 'Recovery is changed.');
                setView('home');
              }}
              onCancel={() => setView('home')}
            />
          </Suspense>
        );
      }
      if (view === 'export') {
        return (
          <Suspense fallback={<StatusScreen message="Loading…" />}>
            <ExportKey userId={user.id} address={state.wallet.address} onClose={() => setView('home')} />
          </Suspense>
        );
      }
      return (
        <WalletSecurityContext value={security}>
          <WalletHome user={user} config={config} address={state.wallet.address} onSignedOut={onSignedOut} />
        </WalletSecurityContext>
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
  const canRetry =
    error.code !== 'device_share_missing' &&
    error.code !== 'wallet_mismatch' &&
    error.code !== 'recovery_not_set_up';

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
