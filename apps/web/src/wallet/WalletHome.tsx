import { findChain, getUsdcAddress, shortenAddress } from '@dial/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { PendingChangesBanner } from '../account/PendingChangesBanner';
import { ActivityPanel } from '../activity/ActivityPanel';
import type { AppConfig, User } from '../api/types';
import { formatBalance, formatUsdc } from '../chain/formatBalance';
import { useBalance } from '../chain/useBalance';
import { retryingText } from '../chain/useRetryWhileFailed';
import { useUsdcBalance } from '../chain/useUsdcBalance';
import { defaultChainId, walletChains } from '../chain/walletChains';
import { useLiveWallet } from '../live/useLiveWallet';
import { openScreen } from '../navigation/navigate';
import { SCREEN_PATHS, type ScreenName } from '../navigation/routes';
import { ScreenLink } from '../navigation/ScreenLink';
import { UnreadNoticesBanner } from '../notices/UnreadNoticesBanner';
import { AddFundsEntry, AddFundsOffer } from '../onramp/AddFundsEntry';
import { TotalValue } from '../prices/TotalValue';
import { RecoveryReminder } from '../recovery/RecoveryReminder';
import { SecurityPanel } from '../recovery/SecurityPanel';
import { SendScreen } from '../send/SendScreen';
import { clearSendDraft } from '../send/sendDraftStore';
import type { WalletSigner } from '../send/sendTransfer';
import { describeIdentity } from '../session/describeIdentity';
import { useSignOut } from '../session/useSignOut';
import { Confirmation } from '../ui/Confirmation';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { readChosenNetwork, saveChosenNetwork } from './chosenNetwork';
import { ExternalWalletNote } from './ExternalWalletNote';
import { NetworkPicker } from './NetworkPicker';
import { PanelScreen } from './PanelScreen';
import { ReceivePanel } from './ReceivePanel';
import { useTestFunds } from './useTestFunds';

/** The screens the wallet home switches between: itself, and those that share its network and balances. */
export type WalletHomeScreen = Exclude<ScreenName, 'recovery-setup' | 'export' | 'settings'>;

interface WalletHomeProps {
  user: User;
  config: AppConfig;
  address: `0x${string}`;
  /** Who signs: the embedded wallet's key, or the person's own wallet app (an `external` account wallet). */
  signer: WalletSigner;
  /** The screen the URL shows. */
  screen: WalletHomeScreen;
  onSignedOut(): void;
}

/**
 * "Your wallet": the balances (native and USDC, and their total value) on a chosen network with the main
 * actions (send, receive, add funds) first, so they fit the first screenful of a phone; then recovery's
 * reminder and adding funds; then the activity, security and receiving (a column beside the balances on a
 * wide screen); and sign-out. And the screens that use the same network and balances: send, receive, activity, add funds and
 * security.
 */
export function WalletHome({ user, config, address, signer, screen, onSignedOut }: WalletHomeProps) {
  const chains = useMemo(() => walletChains(config, window.location.origin), [config]);
  const [chainId, pickChain] = useState(() => readChosenNetwork(chains) ?? defaultChainId(chains));
  const setChainId = useCallback((id: number) => {
    pickChain(id);
    saveChosenNetwork(id);
  }, []);
  const hasUsdc = useCallback(
    (id: number) => getUsdcAddress(id, config.localChain?.usdc) !== undefined,
    [config.localChain?.usdc],
  );
  const chain = findChain(chains, chainId) ?? chains[0]!;
  const isLocal = config.localChain !== null && chain.id === config.localChain.id;
  const usdcAddress = getUsdcAddress(chain.id, config.localChain?.usdc);

  const balance = useBalance(chain, address);
  const usdc = useUsdcBalance(balance.client, usdcAddress, address);
  useLiveWallet(chains);
  const { refresh: refreshNative } = balance;
  const { refresh: refreshUsdc } = usdc;
  const refreshBoth = useCallback(async () => {
    await Promise.all([refreshNative(), refreshUsdc()]);
  }, [refreshNative, refreshUsdc]);
  const testEth = useTestFunds('native', balance.client, refreshNative);
  const testUsdc = useTestFunds('usdc', balance.client, refreshUsdc);
  const signOut = useSignOut(onSignedOut);
  const identity = describeIdentity(user);
  const anyFailed = balance.state.status === 'failed' || usdc.state.status === 'failed';
  /** Counts the sends started on this screen: a new one starts with a new form. */
  const [sendRun, setSendRun] = useState(0);
  // How many transfers the activity list showed, so it opens as long again after the send screen.
  const activityShown = useRef(0);
  const fundsOffer = (asset: string | undefined) => (
    <AddFundsOffer
      config={config}
      address={address}
      chainId={chain.id}
      onFunded={() => void refreshBoth()}
      {...(asset !== undefined ? { asset, lead: `Add ${asset} on ${chain.name}, then try again.` } : {})}
    />
  );

  if (screen === 'send' || screen === 'send-review') {
    return (
      <SendScreen
        key={sendRun}
        userId={user.id}
        ownPhone={user.phone}
        signer={signer}
        address={address}
        chain={chain}
        chains={chains}
        usdcAddress={usdcAddress}
        client={balance.client}
        nativeBalance={balance.state}
        usdcBalance={usdc.state}
        onBalancesChanged={refreshBoth}
        step={screen === 'send' ? 'form' : 'review'}
        onChainChange={setChainId}
        hasUsdc={hasUsdc}
        onRestart={() => setSendRun((run) => run + 1)}
        fundsOffer={fundsOffer}
      />
    );
  }
  if (screen === 'receive') {
    return (
      <PanelScreen title="Receive" path={SCREEN_PATHS.receive}>
        <NetworkPicker chains={chains} value={chain.id} onChange={setChainId} />
        <ReceivePanel address={address} networkName={chain.name} />
      </PanelScreen>
    );
  }
  if (screen === 'activity') {
    return (
      <PanelScreen title="Activity" path={SCREEN_PATHS.activity}>
        <ActivityPanel chains={chains} shownCount={activityShown} />
      </PanelScreen>
    );
  }
  if (screen === 'add-funds') {
    return (
      <PanelScreen title="Add funds" path={SCREEN_PATHS['add-funds']}>
        {config.onramp?.offers.length ? (
          <AddFundsEntry
            config={config}
            address={address}
            chainId={chain.id}
            onFunded={() => void refreshBoth()}
          />
        ) : (
          <p className="hint">This Dial server offers no way to buy or deposit funds.</p>
        )}
      </PanelScreen>
    );
  }
  if (screen === 'security') {
    return (
      <PanelScreen title="Security" path={SCREEN_PATHS.security}>
        {signer === 'external' ? <ExternalWalletNote address={address} /> : <SecurityPanel />}
      </PanelScreen>
    );
  }

  return (
    <Screen title="Your wallet" wide>
      <div className="home-who">
        {identity !== null && (
          <p className="identity">
            Signed in as <span className="break-anywhere">{identity}</span>
          </p>
        )}
        {identity !== address && <p className="address-short">Wallet {shortenAddress(address)}</p>}
      </div>
      <PendingChangesBanner />
      <UnreadNoticesBanner />

      <div className="home-layout">
        <div className="home-column">
          <div className="panel home-balance">
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
                    ? retryingText(balance.state.error)
                    : formatBalance(balance.state.value, chain.nativeCurrency)}
            </p>
            <p
              className={usdcClassName(usdc.state.status)}
              role="status"
              aria-live="polite"
              aria-label="USDC balance"
            >
              {testUsdc.pending
                ? 'Minting test USDC…'
                : usdc.state.status === 'unavailable'
                  ? `USDC is not available on ${chain.name}`
                  : usdc.state.status === 'loading'
                    ? 'Loading USDC balance…'
                    : usdc.state.status === 'failed'
                      ? // One network problem is said once, on the line above.
                        balance.state.status === 'failed'
                        ? 'USDC balance not loaded.'
                        : retryingText(usdc.state.error)
                      : formatUsdc(usdc.state.value)}
            </p>
            <TotalValue chain={chain} native={balance.state} usdc={usdc.state} />
            {testEth.error !== null && <ErrorMessage error={testEth.error} />}
            {testUsdc.error !== null && <ErrorMessage error={testUsdc.error} />}
            <Confirmation message={`${testEth.arrived} ${testUsdc.arrived}`.trim()} label="Test funds" />
            <div className="home-actions">
              <button
                type="button"
                className="button button-primary"
                // Nothing can be sent before the balance is known (the network may be unreachable).
                disabled={balance.state.status !== 'ready'}
                onClick={() => {
                  // A send started here starts with an empty form (not a draft left by Back earlier).
                  clearSendDraft();
                  openScreen(SCREEN_PATHS.send);
                }}
              >
                Send
              </button>
              <ScreenLink to={SCREEN_PATHS.receive} className="button button-secondary">
                Receive
              </ScreenLink>
              {config.onramp?.offers.length ? (
                <ScreenLink to={SCREEN_PATHS['add-funds']} className="button button-secondary">
                  Add funds
                </ScreenLink>
              ) : null}
            </div>
            <div className="balance-actions">
              <button type="button" className="button button-secondary" onClick={() => void refreshBoth()}>
                {anyFailed ? 'Retry' : 'Refresh balance'}
              </button>
              {isLocal && config.faucet && <FaucetButton funds={testEth}>Get test ETH</FaucetButton>}
              {isLocal && config.faucet && usdcAddress !== undefined && (
                <FaucetButton funds={testUsdc}>Get test USDC</FaucetButton>
              )}
            </div>
          </div>

          <RecoveryReminder />
          {signer === 'external' && <ExternalWalletNote address={address} />}
          <AddFundsEntry
            config={config}
            address={address}
            chainId={chain.id}
            onFunded={() => void refreshBoth()}
          />
        </div>

        <div className="home-column">
          <ActivityPanel chains={chains} shownCount={activityShown} />
          <SecurityPanel />
          <ReceivePanel address={address} networkName={chain.name} />
        </div>
      </div>

      <div className="home-end">
        <ScreenLink to={SCREEN_PATHS.settings} className="button button-link">
          Settings
        </ScreenLink>
        {signOut.error !== null && <ErrorMessage error={signOut.error} />}
        <button
          type="button"
          className="button button-link sign-out"
          onClick={() => void signOut.signOut()}
          disabled={signOut.pending}
        >
          {signOut.pending ? 'Signing out…' : 'Sign out'}
        </button>
      </div>
    </Screen>
  );
}

function usdcClassName(status: 'loading' | 'ready' | 'failed' | 'unavailable'): string {
  if (status === 'failed') return 'balance-secondary balance-failed';
  if (status === 'unavailable') return 'balance-secondary balance-unavailable';
  return 'balance-secondary';
}

/** A dev-faucet button. aria-disabled rather than disabled: the button keeps the focus while the faucet works. */
function FaucetButton({
  funds,
  children,
}: {
  funds: { pending: boolean; request(): Promise<unknown> };
  children: string;
}) {
  return (
    <button
      type="button"
      className="button button-secondary"
      aria-disabled={funds.pending}
      onClick={() => {
        if (!funds.pending) void funds.request();
      }}
    >
      {children}
    </button>
  );
}
