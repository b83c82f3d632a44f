import { findChain, shortenAddress } from '@dial/core';
import { useMemo, useRef, useState } from 'react';
import type { AppConfig, User } from '../api/types';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { describeIdentity } from './describeIdentity';
import { formatBalance } from './formatBalance';
import { NetworkPicker } from './NetworkPicker';
import { useBalance } from './useBalance';
import { useCopyAddress } from './useCopyAddress';
import { useSignOut } from './useSignOut';
import { useTestEth } from './useTestEth';
import { defaultChainId, walletChains } from './walletChains';

interface WalletHomeProps {
  user: User;
  config: AppConfig;
  address: `0x${string}`;
  onSignedOut(): void;
}

/** "Your wallet": the address, the balance on a chosen network, and sign-out. */
export function WalletHome({ user, config, address, onSignedOut }: WalletHomeProps) {
  const chains = useMemo(() => walletChains(config, window.location.origin), [config]);
  const [chainId, setChainId] = useState(() => defaultChainId(chains));
  const chain = findChain(chains, chainId) ?? chains[0]!;
  const isLocal = config.localChain !== null && chain.id === config.localChain.id;

  const addressRef = useRef<HTMLElement>(null);
  const { copy, feedback } = useCopyAddress(address, addressRef);
  const balance = useBalance(chain, address);
  const testEth = useTestEth(balance.client, balance.refresh);
  const signOut = useSignOut(onSignedOut);
  const identity = describeIdentity(user);

  return (
    <Screen title="Your wallet">
      {identity !== null && <p className="identity">Signed in as {identity}</p>}

      <div className="panel address-panel">
        <p className="address-short">{shortenAddress(address)}</p>
        <figure className="address-full" aria-label="Wallet address">
          <code ref={addressRef}>{address}</code>
        </figure>
        <div className="row">
          <button type="button" className="button button-secondary" onClick={() => void copy()}>
            Copy address
          </button>
          <p className="feedback" role="status">
            {feedback}
          </p>
        </div>
      </div>

      <div className="panel">
        <NetworkPicker chains={chains} value={chain.id} onChange={setChainId} />
        <p className="balance-caption">Balance on {chain.name}</p>
        <p
          className={balance.state.status === 'failed' ? 'balance balance-failed' : 'balance'}
          role="status"
          aria-live="polite"
          aria-label="Balance"
        >
          {testEth.pending
            ? 'Sending test ETH…'
            : balance.state.status === 'loading'
              ? 'Loading balance…'
              : balance.state.status === 'failed'
                ? balance.state.error.message
                : formatBalance(balance.state.value, chain.nativeCurrency)}
        </p>
        {testEth.error !== null && <ErrorMessage error={testEth.error} />}
        <div className="row">
          {balance.state.status === 'failed' ? (
            <button type="button" className="button button-secondary" onClick={() => void balance.refresh()}>
              Retry
            </button>
          ) : (
            <button type="button" className="button button-secondary" onClick={() => void balance.refresh()}>
              Refresh balance
            </button>
          )}
          {isLocal && config.faucet && (
            <button
              type="button"
              className="button button-primary"
              // aria-disabled rather than disabled: the button keeps the focus while the faucet works.
              aria-disabled={testEth.pending}
              onClick={() => {
                if (!testEth.pending) void testEth.getTestEth();
              }}
            >
              Get test ETH
            </button>
          )}
        </div>
      </div>

      {signOut.error !== null && <ErrorMessage error={signOut.error} />}
      <button
        type="button"
        className="button button-link sign-out"
        onClick={() => void signOut.signOut()}
        disabled={signOut.pending}
      >
        {signOut.pending ? 'Signing out…' : 'Sign out'}
      </button>
    </Screen>
  );
}
