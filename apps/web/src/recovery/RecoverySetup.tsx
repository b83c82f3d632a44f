import './recovery.css';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { toDialError } from '../api/describeError';
import { getWallet } from '../api/endpoints';
import type { ProtectedRecoveryShare, RecoveryMethod, StoredWallet, User } from '../api/types';
import { createRecoveryPasskey, passkeySupported } from '../keys/passkey';
import { protectWithPrf } from '../keys/passkeyKey';
import { protectWithPassword } from '../keys/passwordKey';
import { hardenPassword } from '../keys/passwordOprf';
import { prepareRotation } from '../keys/rotateShares';
import { currentWalletKey } from '../keys/walletKey';
import { ConfirmWithCode } from '../reauth/ConfirmWithCode';
import { describeIdentity } from '../session/describeIdentity';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { KdfProgress } from './KdfProgress';
import { PasswordFields } from './PasswordFields';
import { checkConfirmation, checkNewPassword, passwordUserInputs } from './passwordPolicy';
import { usePasswordCheck } from './usePasswordCheck';
import { useRotationCommit } from './useRotationCommit';

export interface RecoverySetupProps {
  user: User;
  /** The current recovery, when this changes it. */
  current: StoredWallet['recovery'];
  onDone(recovery: StoredWallet['recovery']): void;
  onCancel(): void;
}

type Step = { kind: 'form' } | { kind: 'working'; label: string; fraction: number | null };

/**
 * "Set up recovery" (or "Change recovery"): a recovery password or, where the browser supports it, a
 * passkey. The key, rebuilt through this browser's device, is split into a new recovery pair: its recovery
 * share, encrypted, and its auth share go to the server in one step, replacing the old pair. No device's own
 * split changes, so every device keeps opening the wallet. Asks for a fresh code when the server wants one.
 */
export default function RecoverySetup({ user, current, onDone, onCancel }: RecoverySetupProps) {
  const [canUsePasskey, setCanUsePasskey] = useState(false);
  const [method, setMethod] = useState<RecoveryMethod>('password');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [checked, setChecked] = useState(false);
  // The strength check's verdict, for the password it judged (an older one's is not shown).
  const [verdict, setVerdict] = useState<{ password: string; weakness: string | null } | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'form' });
  const [error, setError] = useState<unknown>(null);
  const rotation = useRotationCommit();
  const strength = usePasswordCheck(method === 'password');
  const passwordRef = useRef(password);
  passwordRef.current = password;
  const passwordInput = useRef<HTMLInputElement>(null);
  const { phone, email } = user;
  const userInputs = useMemo(() => passwordUserInputs({ phone, email }), [phone, email]);

  useEffect(() => {
    let live = true;
    void passkeySupported().then((supported) => {
      if (live) setCanUsePasskey(supported);
    });
    return () => {
      live = false;
    };
  }, []);

  const lengthError = checked && method === 'password' ? checkNewPassword(password) : null;
  const weakness = verdict !== null && verdict.password === password ? verdict.weakness : null;
  const passwordError = lengthError ?? (checked && method === 'password' ? weakness : null);
  const confirmationError =
    checked && method === 'password' && passwordError === null
      ? checkConfirmation(password, confirmation)
      : null;
  const working = step.kind === 'working';

  // After a first submit, the strength verdict follows the password as it is typed, as the other errors do.
  const { judge, status: checkStatus } = strength;
  useEffect(() => {
    if (!checked || method !== 'password' || checkStatus !== 'ready') return;
    if (checkNewPassword(password) !== null) return;
    let current = true;
    const timer = setTimeout(() => {
      judge(password, userInputs).then(
        (weakness) => {
          if (current) setVerdict({ password, weakness });
        },
        // The check's status is `failed` then, and the form says so.
        () => undefined,
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [checked, method, checkStatus, judge, password, userInputs]);

  /**
   * Whether `chosen` is hard enough to guess, waiting for the strength check if it is still loading (and
   * saying so). A check that cannot be loaded refuses nothing: the form says so, to check again or to use
   * the password without it.
   */
  const passesStrengthCheck = async (chosen: string): Promise<boolean> => {
    let weakness: string | null | undefined = verdict?.password === chosen ? verdict.weakness : undefined;
    if (weakness === undefined) {
      setStep({ kind: 'working', label: 'Checking how easy this password is to guess', fraction: null });
      try {
        weakness = await judge(chosen, userInputs);
        setVerdict({ password: chosen, weakness });
      } catch {
        weakness = undefined;
      }
      setStep({ kind: 'form' });
    }
    if (weakness === null) return true;
    passwordInput.current?.focus();
    return false;
  };

  /** The server took the new shares: back to the wallet with the recovery status it now holds. */
  const finish = async () => {
    setStep({ kind: 'working', label: 'Checking', fraction: null });
    let recovery: StoredWallet['recovery'] = { method, createdAt: new Date().toISOString() };
    try {
      recovery = (await getWallet()).recovery ?? recovery;
    } catch {
      // The rotation is done; if the status cannot be read just now, show what was set up.
    }
    setPassword('');
    setConfirmation('');
    onDone(recovery);
  };

  /** `unchecked`: the strength check failed to load and the person chose to use the password without it. */
  const submit = async (event?: FormEvent, { unchecked = false } = {}) => {
    event?.preventDefault();
    if (working) return;
    setChecked(true);
    setError(null);
    if (method === 'password') {
      if ((checkNewPassword(password) ?? checkConfirmation(password, confirmation)) !== null) return;
      if (!unchecked && !(await passesStrengthCheck(password))) return;
    }
    // Wipes the password's OPRF output once the recovery share is protected (or setup failed).
    let wipe = () => {};
    try {
      let protect: (share: Uint8Array, address: string) => Promise<ProtectedRecoveryShare>;
      if (method === 'passkey') {
        // Ask for the passkey first, while the click still counts as the person's gesture.
        setStep({ kind: 'working', label: 'Waiting for your passkey', fraction: null });
        const secret = await createRecoveryPasskey(describeIdentity(user) ?? 'Dial wallet');
        protect = (share, address) => protectWithPrf(share, address, secret.prfOutput, secret.kdf);
      } else {
        const chosen = passwordRef.current;
        // The server's half of the key first: it counts against the hour's recovery tries (a stolen
        // session must not guess through setup), and past them this fails before any work starts.
        setStep({ kind: 'working', label: 'Protecting your recovery key', fraction: 0 });
        const oprfOutput = await hardenPassword(chosen);
        wipe = () => oprfOutput.fill(0);
        protect = (share, address) =>
          protectWithPassword(share, address, chosen, oprfOutput, (fraction) =>
            setStep({ kind: 'working', label: 'Protecting your recovery key', fraction }),
          );
      }
      setStep({
        kind: 'working',
        label: 'Protecting your recovery key',
        fraction: method === 'password' ? 0 : null,
      });
      const { wallet, privateKey } = await currentWalletKey(user.id);
      const pending = await prepareRotation(user.id, wallet.address, wallet.generation, privateKey, (share) =>
        protect(share, wallet.address),
      );
      setStep({ kind: 'working', label: 'Saving', fraction: null });
      if (await rotation.commit(pending)) await finish();
      else setStep({ kind: 'form' });
    } catch (caught) {
      setError(toDialError(caught));
      setStep({ kind: 'form' });
    } finally {
      wipe();
    }
  };

  const resume = async () => {
    const pending = rotation.awaitingCode;
    if (pending === null) return;
    setError(null);
    setStep({ kind: 'working', label: 'Saving', fraction: null });
    try {
      if (await rotation.commit(pending)) await finish();
      else setStep({ kind: 'form' });
    } catch (caught) {
      setError(toDialError(caught));
      setStep({ kind: 'form' });
    }
  };

  const title = current === null ? 'Set up recovery' : 'Change recovery';

  if (rotation.awaitingCode !== null && !working) {
    return (
      <Screen title="Confirm it's you">
        {error !== null && <ErrorMessage error={error} />}
        <ConfirmWithCode
          reason="Your sign-in was a while ago, so confirm it's you with a new code before your wallet's keys are changed."
          onConfirmed={() => void resume()}
        />
        <button type="button" className="button button-link" onClick={onCancel}>
          Cancel
        </button>
      </Screen>
    );
  }

  return (
    <Screen title={title}>
      <p>
        Your wallet opens on each device you add. The recovery {method === 'passkey' ? 'passkey' : 'password'}{' '}
        is for when you have none of them: a new phone, a wiped browser. Then sign in on any browser and use
        it to get your wallet back there.
      </p>
      <div className="warning-box">
        <p>
          <strong>
            If you lose every device your wallet opens on and your recovery password or passkey, your wallet
            and its funds are gone for good.
          </strong>{' '}
          Dial never sees your password and cannot reset it.
        </p>
        {current !== null && (
          <p>Your old recovery {current.method === 'passkey' ? 'passkey' : 'password'} will stop working.</p>
        )}
      </div>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        {canUsePasskey && (
          <fieldset className="method-choice" disabled={working}>
            <legend>Protect recovery with</legend>
            <label className="method-option">
              <input
                type="radio"
                name="recovery-method"
                value="passkey"
                checked={method === 'passkey'}
                onChange={() => setMethod('passkey')}
              />
              <span>
                <strong>A passkey</strong>
                <span className="hint">
                  {' '}
                  (your device's screen lock or a security key; synced passkeys work on your other devices)
                </span>
              </span>
            </label>
            <label className="method-option">
              <input
                type="radio"
                name="recovery-method"
                value="password"
                checked={method === 'password'}
                onChange={() => setMethod('password')}
              />
              <span>
                <strong>A recovery password</strong>
                <span className="hint"> (works anywhere; keep it somewhere safe)</span>
              </span>
            </label>
          </fieldset>
        )}
        {method === 'password' && (
          <PasswordFields
            password={password}
            confirmation={confirmation}
            onPassword={setPassword}
            onConfirmation={setConfirmation}
            passwordError={passwordError}
            confirmationError={confirmationError}
            disabled={working}
            passwordRef={passwordInput}
            checkStatus={checkStatus}
            onRetryCheck={strength.retry}
            onUseUnchecked={() => void submit(undefined, { unchecked: true })}
          />
        )}
        {step.kind === 'working' && <KdfProgress label={step.label} fraction={step.fraction} />}
        {error !== null && <ErrorMessage error={error} />}
        <button type="submit" className="button button-primary" aria-disabled={working}>
          {working ? 'Setting up…' : method === 'passkey' ? 'Create passkey' : title}
        </button>
        <button type="button" className="button button-link" onClick={onCancel} disabled={working}>
          Cancel
        </button>
      </form>
    </Screen>
  );
}
