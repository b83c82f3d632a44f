import { useCallback, useEffect, useRef, useState } from 'react';
import {
  connectWithWalletConnect,
  type WalletConnectConnection,
  type WalletConnectMetadata,
} from './connectWithWalletConnect';

/** Where a WalletConnect sign-in stands. */
export type WalletConnectPhase =
  | { name: 'starting' }
  | { name: 'waiting'; uri: string }
  | { name: 'connected'; connection: WalletConnectConnection }
  | { name: 'failed'; error: unknown };

export interface UseWalletConnectSignInOptions {
  projectId: string;
  relayUrl: string;
  chainIds: readonly number[];
  onConnected(connection: WalletConnectConnection): void;
}

/** What Dial tells the wallet about itself: this page's origin, so the wallet shows where the request comes from. */
function dialMetadata(): WalletConnectMetadata {
  const { origin } = window.location;
  return {
    name: 'Dial',
    description: 'Sign in to Dial with your wallet.',
    url: origin,
    icons: [new URL('/favicon.svg', origin).href],
  };
}

/**
 * Runs one WalletConnect connection while the component is shown: starts at once, shows the `wc:` link as
 * soon as the relay has the proposal, hands the connection to `onConnected`, and on failure (the proposal
 * expired, the relay is down, the person refused) waits for `retry`. Leaving (unmounting) cancels.
 */
export function useWalletConnectSignIn({
  projectId,
  relayUrl,
  chainIds,
  onConnected,
}: UseWalletConnectSignInOptions) {
  const [phase, setPhase] = useState<WalletConnectPhase>({ name: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const onConnectedRef = useRef(onConnected);
  useEffect(() => {
    onConnectedRef.current = onConnected;
  }, [onConnected]);
  const chainKey = chainIds.join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the connection on purpose.
  useEffect(() => {
    const controller = new AbortController();
    setPhase({ name: 'starting' });
    connectWithWalletConnect({
      projectId,
      relayUrl,
      chainIds: chainKey.split(',').map(Number),
      metadata: dialMetadata(),
      signal: controller.signal,
      onUri: (uri) => {
        if (!controller.signal.aborted) setPhase({ name: 'waiting', uri });
      },
    }).then(
      (connection) => {
        if (controller.signal.aborted) {
          void connection.disconnect();
          return;
        }
        setPhase({ name: 'connected', connection });
        onConnectedRef.current(connection);
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setPhase({ name: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [projectId, relayUrl, chainKey, attempt]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);
  return { phase, retry };
}
