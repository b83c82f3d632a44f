import { lazy, Suspense, useState } from 'react';
import type { AppConfig } from '../api/types';
import { getSiweNonce } from '../connect/siweApi';
import type { WalletSignIn } from '../connect/useWalletSignIn';
import { WALLETCONNECT_INFO } from '../connect/walletProvider';
import { ErrorMessage } from '../ui/ErrorMessage';
import { StatusScreen } from '../ui/StatusScreen';
import { walletConnectProvider } from './connectionProvider';
import { loadWalletConnectSignIn } from './loadWalletConnectSignIn';

// WalletConnect's SDK is a chunk of its own (with its own budget): loaded when the person picks it.
const WalletConnectSignIn = lazy(loadWalletConnectSignIn);

type Route =
  | { open: false; error: unknown }
  | { open: true; nonce: Awaited<ReturnType<typeof getSiweNonce>> };

interface WalletConnectEntryProps {
  walletConnect: NonNullable<AppConfig['walletConnect']>;
  /** The sign-in screen's wallet sign-in, which the connection signs in through. */
  walletSignIn: WalletSignIn;
}

/**
 * "WalletConnect" among the wallets on the sign-in screen: fetches a sign-in nonce (its chain ids are the
 * chains proposed to the wallet), then shows the QR code (WalletConnectSignIn, lazily); once the wallet on
 * the other device approves, signs in through the connection with that nonce (Sign-In with Ethereum, as a
 * browser wallet does).
 */
export function WalletConnectEntry({ walletConnect, walletSignIn }: WalletConnectEntryProps) {
  const [route, setRoute] = useState<Route>({ open: false, error: null });
  const [starting, setStarting] = useState(false);
  const unavailable = starting || walletSignIn.busy;

  const start = async () => {
    if (unavailable || route.open) return;
    setStarting(true);
    try {
      setRoute({ open: true, nonce: await getSiweNonce() });
    } catch (error) {
      setRoute({ open: false, error });
    } finally {
      setStarting(false);
    }
  };

  return (
    <>
      <button
        type="button"
        className="button button-secondary wallet-button"
        aria-disabled={unavailable}
        aria-expanded={route.open}
        onClick={() => void start()}
      >
        <span className="wallet-icon wallet-icon-blank" aria-hidden="true" />
        {starting ? 'Starting WalletConnect…' : 'WalletConnect'}
      </button>
      {route.open ? (
        <Suspense fallback={<StatusScreen message="Loading WalletConnect…" />}>
          <WalletConnectSignIn
            projectId={walletConnect.projectId}
            relayUrl={walletConnect.relayUrl}
            chainIds={route.nonce.chainIds}
            onConnected={(connection) =>
              void walletSignIn.signIn(
                { info: WALLETCONNECT_INFO, provider: walletConnectProvider(connection) },
                { address: connection.address, chainId: connection.chainId, nonce: route.nonce },
              )
            }
            onCancel={() => setRoute({ open: false, error: null })}
          />
        </Suspense>
      ) : (
        route.error !== null && <ErrorMessage error={route.error} />
      )}
    </>
  );
}
