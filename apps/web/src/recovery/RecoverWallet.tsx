import './recovery.css';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { toDialError } from '../api/describeError';
import type { User } from '../api/types';
import { KEYS_CHANGED_MESSAGE } from '../keys/keyShareCheck';
import type { WalletToRecover } from '../keys/openWallet';
import { type RecoveryStage, recoverToRotation } from '../keys/recoverToRotation';
import { ConfirmWithCode } from '../reauth/ConfirmWithCode';
import { useSignOut } from '../session/useSignOut';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { KdfProgress } from './KdfProgress';
import { useRotationCommit } from './useRotationCommit';

export interface RecoverWalletProps {
  user: User;
  toRecover: WalletToRecover;
  /** The new shares are in place: open the wallet. */
  onRecovered(): void;
  onSignedOut(): void;
}

const STAGE_LABELS: Record<RecoveryStage | 'saving', string> = {
  fetching: 'Getting your recovery key',
  unlocking: 'Unlocking your recovery key',
  protecting: 'Protecting your new recovery key',
  saving: 'Saving your new keys',
};

/**
 * "Recover your wallet": this browser holds no device share of the wallet's current keys (a new browser,
 * cleared data, or the keys were replaced on another device). The recovery password or passkey unlocks
 * the recovery share; the wallet then gets new shares and opens here.
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
      const pending = await recoverToRotation(
        user.id,
        method === 'password' ? { method, password } : { method },
        (next, fraction) => setStage({ label: STAGE_LABELS[next], fraction }),
      );
      setStage({ label: STAGE_LABELS.saving, fraction: null });
      return rotation.commit(pending);
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
          reason="You signed in a while ago, so confirm it's you with a new code before your wallet gets its new keys."
          onConfirmed={resume}
        />
      </Screen>
    );
  }

  return (
    <Screen title="Recover your wallet" focusHeading={method !== 'password'}>
      {toRecover.hasMismatchedShare ? (
        <p>
          The key share this browser holds does not match your wallet's current keys (they were changed on
          another device or in another tab while a change here was not finished), so it cannot open your
          wallet. Recover it with your recovery {method === 'passkey' ? 'passkey' : 'password'} to use it
          here; the share that does not match is then removed.
        </p>
      ) : toRecover.hasOlderShare ? (
        <>
          <p className="warning-box">{KEYS_CHANGED_MESSAGE}</p>
          <p>
            It was recovered, or its recovery was changed, there, so the key share this browser holds no
            longer opens it. Use your recovery {method === 'passkey' ? 'passkey' : 'password'}: your funds are
            safe.
          </p>
        </>
      ) : (
        <p>
          This browser does not hold your wallet's key. Use your recovery{' '}
          {method === 'passkey' ? 'passkey' : 'password'} to open your wallet here.
        </p>
      )}
      {method === 'password' ? (
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
