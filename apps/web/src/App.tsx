import { CHANNELS } from '@dial/core';
import { Suspense, useCallback, useState } from 'react';
import type { AppConfig, OtpChannel, User } from './api/types';
import type { WalletSignIn } from './connect/useWalletSignIn';
import { useSession } from './session/useSession';
import { SignInFlow } from './sign-in/SignInFlow';
import { ErrorMessage } from './ui/ErrorMessage';
import { LoadFailureBoundary } from './ui/LoadFailureBoundary';
import { StatusScreen } from './ui/StatusScreen';
import { loadWalletScreen, openWalletEarly, useSignedInHint } from './wallet/loadWalletScreen';
import { WalletScreenEntry } from './wallet/WalletScreenEntry';
import type { WalletOpening } from './wallet/walletOpening';
import { WalletConnectEntry } from './walletconnect/WalletConnectEntry';

/**
 * The app: loading → signed out (sign-in) → signed in (wallet), and back on sign-out. `opening` is the
 * wallet's opening main.tsx started for a visit that was signed in already ({@link openWalletEarly}).
 */
export function App({ opening: openingAtStart }: { opening?: WalletOpening | undefined } = {}) {
  const { session, signedIn, signedOut, retry } = useSession();
  useSignedInHint(session.status);
  /** The wallet's opening, started the moment a sign-in ends (or at start), before the wallet screen renders. */
  const [opening, setOpening] = useState<WalletOpening | undefined>(openingAtStart);
  const signedInHere = useCallback(
    (user: User) => {
      setOpening(openWalletEarly(user));
      signedIn(user);
    },
    [signedIn],
  );
  // An opening belongs to one sign-in: the next one, even of the same person, opens the wallet afresh.
  const signedOutHere = useCallback(() => {
    setOpening(undefined);
    signedOut();
  }, [signedOut]);

  return (
    <>
      <header className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Dial</span>
      </header>
      <main className="main">
        {session.status === 'loading' && <StatusScreen message="Loading…" />}
        {session.status === 'failed' && (
          <div className="card">
            <ErrorMessage error={session.error} />
            <button type="button" className="button button-primary" onClick={retry}>
              Try again
            </button>
          </div>
        )}
        {session.status === 'signed-out' && (
          <SignInFlow
            channels={usableChannels(session.config.channels)}
            moreWallets={walletConnectEntry(session.config.walletConnect)}
            onSignedIn={signedInHere}
            preloadNext={loadWalletScreen}
          />
        )}
        {session.status === 'signed-in' && (
          <LoadFailureBoundary>
            <Suspense fallback={<StatusScreen message="Opening your wallet…" />}>
              <WalletScreenEntry
                user={session.user}
                config={session.config}
                onSignedOut={signedOutHere}
                onUserChanged={signedIn}
                opening={opening}
              />
            </Suspense>
          </LoadFailureBoundary>
        )}
      </main>
    </>
  );
}

/** The channels to offer: the server's, or both when it does not say (or names none, a misconfiguration). */
function usableChannels(channels: readonly OtpChannel[] | undefined): readonly OtpChannel[] {
  return channels !== undefined && channels.length > 0 ? channels : CHANNELS;
}

/** "WalletConnect" on the sign-in screen when the server offers it. */
function walletConnectEntry(walletConnect: AppConfig['walletConnect'] | undefined) {
  if (walletConnect === null || walletConnect === undefined) return undefined;
  return (walletSignIn: WalletSignIn) => (
    <WalletConnectEntry walletConnect={walletConnect} walletSignIn={walletSignIn} />
  );
}
