import type { DialError } from '@dial/core';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { AppConfig, StoredWallet, User } from '../api/types';
import { closeScreen, openScreen, replaceScreen } from '../navigation/navigate';
import { SCREEN_PATHS, screenAt } from '../navigation/routes';
import { useLocation } from '../navigation/useLocation';
import { isReminderSnoozed, readReminderLater, saveReminderLater } from '../recovery/reminderSnooze';
import { type WalletSecurity, WalletSecurityContext } from '../recovery/walletSecurity';
import { clearSendDraft } from '../send/sendDraftStore';
import { useSignOut } from '../session/useSignOut';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { StatusScreen } from '../ui/StatusScreen';
import { CreateDialWallet } from './CreateDialWallet';
import { useDeviceRemoval } from './useDeviceRemoval';
import { useOpenWallet } from './useOpenWallet';
import { WalletHome } from './WalletHome';
import type { WalletOpening } from './walletOpening';

export interface WalletScreenProps {
  user: User;
  config: AppConfig;
  onSignedOut(): void;
  /** The account changed (an embedded wallet was created for it): the app shows it from now on. */
  onUserChanged(user: User): void;
  /** The opening of the embedded wallet the app started at sign-in ({@link startWalletOpening}), if any. */
  opening?: WalletOpening | undefined;
}

export { startWalletOpening } from './walletOpening';

// Recovery, its setup and export bring the KDF and WebAuthn code: their own chunks, loaded when needed.
const RecoverWallet = lazy(() => import('../recovery/RecoverWallet'));
const RecoverySetup = lazy(() => import('../recovery/RecoverySetup'));
const ExportKey = lazy(() => import('../export/ExportKey'));
// Settings (sign-in methods, sessions) is visited rarely: its own chunk too.
const SettingsScreen = lazy(() => import('../settings/SettingsScreen'));
// Adding a device (this browser shows the code) and linking this browser (it enters one): their own chunks.
const AddDevice = lazy(() => import('../devices/AddDevice'));
const LinkDevice = lazy(() => import('../devices/LinkDevice'));

/**
 * The signed-in part of the app (a lazy chunk). An account whose wallet is the person's own wallet app
 * (`external`) uses it as it is: Dial creates no wallet for it. Any other account opens (or, the first time,
 * creates) its embedded wallet.
 */
export default function WalletScreen(props: WalletScreenProps) {
  const { user } = props;
  return user.wallet?.kind === 'external' ? (
    <ExternalWalletScreen {...props} address={user.wallet.address} />
  ) : (
    <EmbeddedWalletScreen {...props} />
  );
}

/**
 * The embedded wallet: opens or creates it, then shows the screen the URL names (see navigation/routes.ts);
 * recovers the wallet first (or says how to add this browser) when this browser is not one of its devices.
 */
function EmbeddedWalletScreen({ user, config, onSignedOut, opening }: WalletScreenProps) {
  const { state, retry } = useOpenWallet(user.id, opening);
  const sessionEnded = state.status === 'failed' && state.error.code === 'unauthorized';
  const location = useLocation();
  const screen = screenAt(location.path);
  /** When "Later" was last pressed on the recovery reminder in this browser: it stays hidden a few days. */
  const [reminderLater, setReminderLater] = useState(() => readReminderLater(user.id));
  const reminderDismissed = isReminderSnoozed(reminderLater, Date.now());
  const [notice, setNotice] = useState('');
  /** The recovery status after a change on this screen (the opened wallet's until then). */
  const [changedRecovery, setChangedRecovery] = useState<StoredWallet['recovery'] | undefined>(undefined);
  const recovery =
    changedRecovery !== undefined ? changedRecovery : state.status === 'ready' ? state.wallet.recovery : null;
  // This browser removed from the wallet on another device meanwhile: open the wallet again, which says so
  // and leads to recovering it here or adding it again.
  useDeviceRemoval(user.id, state.status === 'ready', retry);

  const security = useMemo<WalletSecurity>(
    () => ({
      recovery,
      reminderDismissed,
      notice,
      dismissReminder: () => {
        const now = Date.now();
        saveReminderLater(user.id, now);
        setReminderLater(now);
      },
      openRecoverySetup: () => {
        setNotice('');
        openScreen(SCREEN_PATHS['recovery-setup']);
      },
      openExport: () => {
        setNotice('');
        openScreen(SCREEN_PATHS.export);
      },
    }),
    [recovery, reminderDismissed, notice, user.id],
  );

  // The session ended meanwhile (expired, or signed out in another tab): back to sign-in, on the same
  // screen, so signing in again continues there.
  useEffect(() => {
    if (sessionEnded) onSignedOut();
  }, [sessionEnded, onSignedOut]);

  /** The person signed out: the next one to sign in here starts at the wallet home, with no draft. */
  const signedOutHere = useCallback(() => {
    clearSendDraft();
    replaceScreen(SCREEN_PATHS.home);
    onSignedOut();
  }, [onSignedOut]);

  // Settings needs no key: it shows whatever the wallet's state (someone who lost this browser's share can
  // still end their other sessions).
  if (screen === 'settings') {
    return (
      <Suspense fallback={<StatusScreen message="Loading…" />}>
        <SettingsScreen
          userId={user.id}
          onSignedOut={signedOutHere}
          onSessionEnded={onSignedOut}
          walletDevices
        />
      </Suspense>
    );
  }
  // Linking this browser needs no key either: it is how a browser without one gets its own.
  if (screen === 'link-device') {
    return (
      <Suspense fallback={<StatusScreen message="Loading…" />}>
        <LinkDevice
          userId={user.id}
          initialCode={new URLSearchParams(location.search).get('code') ?? ''}
          onLinked={() => {
            replaceScreen(SCREEN_PATHS.home);
            retry();
          }}
          onClose={() => replaceScreen(SCREEN_PATHS.home)}
        />
      </Suspense>
    );
  }

  switch (state.status) {
    case 'opening':
      return <StatusScreen message="Opening your wallet…" />;
    case 'creating':
      return <StatusScreen message="Setting up your wallet…" />;
    case 'failed':
      return <WalletProblem error={state.error} onRetry={retry} onSignedOut={signedOutHere} />;
    case 'recover':
      return (
        <Suspense fallback={<StatusScreen message="Loading…" />}>
          <RecoverWallet
            user={user}
            toRecover={state.toRecover}
            onRecovered={() => {
              // A key screen opened before this browser became a device starts over from the home.
              if (screen === 'recovery-setup' || screen === 'export') replaceScreen(SCREEN_PATHS.home);
              retry();
            }}
            onSignedOut={signedOutHere}
          />
        </Suspense>
      );
    case 'ready':
      if (screen === null) return <NotFound />;
      if (screen === 'recovery-setup') {
        return (
          <Suspense fallback={<StatusScreen message="Loading…" />}>
            <RecoverySetup
              user={user}
              current={recovery}
              onDone={(next) => {
                setChangedRecovery(next);
                setNotice(recoveryNotice(recovery === null, next));
                closeScreen(SCREEN_PATHS['recovery-setup'], SCREEN_PATHS.security);
              }}
              onCancel={() => closeScreen(SCREEN_PATHS['recovery-setup'], SCREEN_PATHS.security)}
            />
          </Suspense>
        );
      }
      if (screen === 'add-device') {
        return (
          <Suspense fallback={<StatusScreen message="Loading…" />}>
            <AddDevice
              userId={user.id}
              onClose={() => closeScreen(SCREEN_PATHS['add-device'], SCREEN_PATHS.settings)}
            />
          </Suspense>
        );
      }
      if (screen === 'export') {
        return (
          <Suspense fallback={<StatusScreen message="Loading…" />}>
            <ExportKey
              userId={user.id}
              address={state.wallet.address}
              onClose={() => closeScreen(SCREEN_PATHS.export, SCREEN_PATHS.security)}
            />
          </Suspense>
        );
      }
      return (
        <WalletSecurityContext value={security}>
          <WalletHome
            user={user}
            config={config}
            address={state.wallet.address}
            signer="embedded"
            screen={screen}
            onSignedOut={signedOutHere}
          />
        </WalletSecurityContext>
      );
  }
}

/**
 * The person's own wallet app is the account's wallet: the same balances, receive panel and activity, and
 * sends confirmed in that app. Recovery and export are the wallet app's business, not Dial's.
 */
function ExternalWalletScreen({
  user,
  config,
  onSignedOut,
  onUserChanged,
  address,
}: WalletScreenProps & { address: `0x${string}` }) {
  const screen = screenAt(useLocation().path);
  const signedOutHere = useCallback(() => {
    clearSendDraft();
    replaceScreen(SCREEN_PATHS.home);
    onSignedOut();
  }, [onSignedOut]);

  if (screen === null) return <NotFound />;
  if (screen === 'settings') {
    return (
      <Suspense fallback={<StatusScreen message="Loading…" />}>
        <SettingsScreen
          userId={user.id}
          onSignedOut={signedOutHere}
          onSessionEnded={onSignedOut}
          walletOffer={
            <CreateDialWallet
              user={user}
              onCreated={(changed) => {
                // The new wallet shows on the wallet home, where its recovery can be set up next.
                replaceScreen(SCREEN_PATHS.home);
                onUserChanged(changed);
              }}
            />
          }
        />
      </Suspense>
    );
  }
  // Devices belong to an embedded wallet: there are none to add or link here.
  if (screen === 'add-device' || screen === 'link-device') return <NotFound />;
  // Recovery and export belong to an embedded wallet: here they are the security screen's note.
  const shown = screen === 'recovery-setup' || screen === 'export' ? 'security' : screen;
  return (
    <WalletHome
      user={user}
      config={config}
      address={address}
      signer="external"
      screen={shown}
      onSignedOut={signedOutHere}
    />
  );
}

/** The confirmation after recovery was set up or changed: what it now does for the person. */
function recoveryNotice(setUp: boolean, next: StoredWallet['recovery']): string {
  const secret = next?.method === 'passkey' ? 'passkey' : 'recovery password';
  const done = setUp ? 'Recovery is set up.' : 'Recovery is changed.';
  return `${done} If you have none of your devices any more, your ${secret} opens your wallet on a new one.`;
}

/** A path no screen has (a mistyped or old link). */
function NotFound() {
  return (
    <Screen title="Page not found">
      <p className="lead">There is no page at this address in Dial.</p>
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => replaceScreen(SCREEN_PATHS.home)}
        >
          Go to your wallet
        </button>
      </div>
    </Screen>
  );
}

interface WalletProblemProps {
  error: DialError;
  onRetry(): void;
  onSignedOut(): void;
}

/** The wallet could not be opened: say why, offer what can help. */
function WalletProblem({ error, onRetry, onSignedOut }: WalletProblemProps) {
  const { signOut, pending, error: signOutError } = useSignOut(onSignedOut);
  // Trying again cannot bring back a device this browser is not, or fix a mismatch.
  const canRetry =
    error.code !== 'device_share_missing' &&
    error.code !== 'device_removed' &&
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
