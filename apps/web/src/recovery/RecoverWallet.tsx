import './recovery.css';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { toDialError } from '../api/describeError';
import type { User } from '../api/types';
import { DEVICE_REMOVED_MESSAGE } from '../keys/deviceRemoval';
import type { WalletToRecover } from '../keys/openWallet';
import { type RecoveryStage, recoverWallet } from '../keys/recoverWallet';
import { openScreen } from '../navigation/navigate';
import { SCREEN_PATHS } from '../navigation/routes';
import { ConfirmWithCode } from '../reauth/ConfirmWithCode';
import { useSignOut } from '../session/useSignOut';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { KdfProgress } from './KdfProgress';
import { useRotationCommit } from './useRotationCommit';

export interface RecoverWalletProps {
  user: User;
  toRecover: WalletToRecover;
  /** This browser is a device of the wallet now: open the wallet. */
  onRecovered(): void;
  onSignedOut(): void;
}

const STAGE_LABELS: Record<RecoveryStage | 'saving', string> = {
  fetching: 'Getting your recovery key',
  unlocking: 'Unlocking your recovery key',
  enrolling: 'Adding this browser to your wallet',
  protecting: 'Protecting your recovery key again',
  saving: 'Saving your recovery key',
};

/**
 * "Recover your wallet": this browser is not one of the wallet's devices (a new browser, cleared data, or
 * removed on another device). The recovery password or passkey unlocks the recovery share and this browser
 * becomes one more device of the wallet; no other device is touched. Or the person adds this browser from a
 * device that opens the wallet (Settings › Devices › Add a device, on that device) and enters its code here
 * (`/link`).
 * Without recovery set up, only the second way is offered.
 */
export default function RecoverWallet({ user, toRecover, onRecovered, onSignedOut }: RecoverWalletProps) {
  const method = toRecover.wallet.recovery?.method ?? 'password';
  const [password, setPassword] = useState('');
  const [stage, setStage] = useState<{ label: string; fraction: number | null } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const rotation = useRotationCommit();
  const signOut = useSignOut(onSignedOut);
  const passwordRef = useRef<HTMLInputElement>(null);
  const working = stage !== null;
  // The password is the screen's only field: it has the focus when the screen opens (the heading has it for a
  // passkey). Focused by this effect when the screen mounts rather than by `autoFocus`, which the linter's
  // accessibility rules refuse (`noAutofocus`).
  useEffect(() => {
    if (method === 'password') passwordRef.current?.focus();
  }, [method]);

  const run = async (task: () => Promise<boolean>) => {
    setError(null);
    try {
      if (await task()) {
        setPassword('');
        onRecovered();
        return;
      }
    } catch (caught) {
      setError(toDialError(caught));
      passwordRef.current?.select();
    }
    setStage(null);
  };

  const recover = (event?: FormEvent) => {
    event?.preventDefault();
    if (working) return;
    if (method === 'password' && password === '') {
      passwordRef.current?.focus();
      return;
    }
    void run(async () => {
      const recovered = await recoverWallet(
        user.id,
        method === 'password' ? { method, password } : { method },
        (next, fraction) => setStage({ label: STAGE_LABELS[next], fraction }),
      );
      if (recovered.rewrap === null) return true;
      // The wallet opens here already; the record written before the OPRF is re-wrapped now.
      setStage({ label: STAGE_LABELS.saving, fraction: null });
      return rotation.commit(recovered.rewrap);
    });
  };

  const resume = () => {
    const pending = rotation.awaitingCode;
    if (pending === null) return;
    setStage({ label: STAGE_LABELS.saving, fraction: null });
    void run(() => rotation.commit(pending));
  };

  if (rotation.awaitingCode !== null && !working) {
    return (
      <Screen title="Confirm it's you">
        {error !== null && <ErrorMessage error={error} />}
        <ConfirmWithCode
          reason="You signed in a while ago, so confirm it's you with a new code before your recovery key is protected again."
          onConfirmed={resume}
        />
      </Screen>
    );
  }

  const recovery = toRecover.wallet.recovery;
  const secretName = method === 'passkey' ? 'passkey' : 'password';
  return (
    <Screen
      title={recovery === null ? 'Your wallet is on another device' : 'Recover your wallet'}
      focusHeading={method !== 'password' || recovery === null}
    >
      {toRecover.removed ? (
        <p className="warning-box">{DEVICE_REMOVED_MESSAGE}</p>
      ) : (
        <p>This browser is not one of the devices your wallet opens on.</p>
      )}
      {recovery === null ? (
        toRecover.wallet.devices === 0 ? (
          <p>
            No device opens your wallet any more, and recovery was not set up for it, so it cannot be opened.
          </p>
        ) : (
          <p>
            Your wallet opens on the devices you use it on. To use it here, add this browser from one of them:{' '}
            <strong>Settings › Devices › Add a device</strong>, on that device, then enter the code it shows.
          </p>
        )
      ) : (
        <p>
          To use it here, recover it with your recovery {secretName}, or add this browser from a device your
          wallet opens on (<strong>Settings › Devices › Add a device</strong>, on that device) and enter the
          code it shows. Your other devices keep working either way.
        </p>
      )}
      {recovery === null ? null : method === 'password' ? (
        <form className="form" onSubmit={recover} noValidate>
          <div className="field">
            <label className="label" htmlFor="recover-password">
              Recovery password
            </label>
            <input
              ref={passwordRef}
              id="recover-password"
              className="input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              readOnly={working}
              aria-invalid={error !== null}
              aria-describedby={error !== null ? 'recover-error' : undefined}
            />
          </div>
          {stage !== null && <KdfProgress label={stage.label} fraction={stage.fraction} />}
          {error !== null && <ErrorMessage error={error} id="recover-error" />}
          <button
            type="submit"
            className="button button-primary"
            disabled={password === ''}
            aria-disabled={working}
          >
            {working ? 'Recovering…' : 'Recover wallet'}
          </button>
        </form>
      ) : (
        <>
          {stage !== null && <KdfProgress label={stage.label} fraction={stage.fraction} />}
          {error !== null && <ErrorMessage error={error} id="recover-error" />}
          <button
            type="button"
            className="button button-primary"
            onClick={() => recover()}
            aria-disabled={working}
          >
            {working ? 'Recovering…' : 'Use my passkey'}
          </button>
        </>
      )}
      {(recovery !== null || toRecover.wallet.devices > 0) && (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => openScreen(SCREEN_PATHS['link-device'])}
          disabled={working}
        >
          Enter a code from my other device
        </button>
      )}
      {signOut.error !== null && <ErrorMessage error={signOut.error} />}
      <button
        type="button"
        className="button button-link"
        onClick={() => void signOut.signOut()}
        disabled={signOut.pending || working}
      >
        {signOut.pending ? 'Signing out…' : 'Sign out'}
      </button>
    </Screen>
  );
}
