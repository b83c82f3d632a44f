import './devices.css';
import { isDialError } from '@dial/core';
import { type FormEvent, useId, useState } from 'react';
import { toDialError } from '../api/describeError';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { cancelDeviceLink } from './devicesApi';
import { type ClaimedLink, claimLink, finishLink } from './linkFlow';
import { useLinkUpdates } from './useLinkUpdates';
import { Words } from './Words';

export interface LinkDeviceProps {
  userId: string;
  /** The code the QR code carried (`/link?code=…`), to fill in. */
  initialCode: string;
  /** This browser can now open the wallet: open it. */
  onLinked(): void;
  /** Leave without linking. */
  onClose(): void;
}

type Step =
  | { kind: 'enter' }
  | { kind: 'claiming' }
  | { kind: 'waiting'; link: ClaimedLink }
  | { kind: 'finishing'; link: ClaimedLink }
  | { kind: 'done' }
  | { kind: 'ended'; why: 'expired' | 'cancelled' };

/**
 * `/link` on the new browser: the code from the other device (typed, or filled from the QR code's URL), then
 * the words to compare, then, once the other device confirmed, the new device's share opened here (it was
 * sealed for this browser only), checked, and kept.
 */
export default function LinkDevice({ userId, initialCode, onLinked, onClose }: LinkDeviceProps) {
  const [code, setCode] = useState(initialCode);
  const [step, setStep] = useState<Step>({ kind: 'enter' });
  const [error, setError] = useState<unknown>(null);
  const inputId = useId();
  const hintId = useId();

  const claim = async (event: FormEvent) => {
    event.preventDefault();
    if (step.kind !== 'enter') return;
    setError(null);
    setStep({ kind: 'claiming' });
    try {
      setStep({ kind: 'waiting', link: await claimLink(code) });
    } catch (caught) {
      setError(toDialError(caught));
      setStep({ kind: 'enter' });
    }
  };

  const waiting = step.kind === 'waiting' ? step.link : null;
  useLinkUpdates(
    waiting?.id ?? null,
    waiting !== null,
    (update) => {
      if (waiting === null) return;
      if (update.state === 'expired' || update.state === 'cancelled') {
        setStep({ kind: 'ended', why: update.state });
        return;
      }
      if (update.state !== 'confirmed') return;
      setStep({ kind: 'finishing', link: waiting });
      finishLink(userId, waiting, update).then(
        () => setStep({ kind: 'done' }),
        (caught: unknown) => {
          setError(toDialError(caught));
          setStep({ kind: 'ended', why: 'cancelled' });
        },
      );
    },
    () => {
      // Tried again at the next tick.
    },
  );

  const cancel = async () => {
    const current = waiting;
    setStep({ kind: 'ended', why: 'cancelled' });
    if (current !== null) {
      try {
        await cancelDeviceLink(current.id);
      } catch {
        // It expires by itself within 5 minutes.
      }
    }
  };

  return (
    <Screen title="Open your wallet on this device" focusHeading={step.kind !== 'enter'}>
      {(step.kind === 'enter' || step.kind === 'claiming') && (
        <form onSubmit={(event) => void claim(event)} noValidate>
          <p className="lead">
            On a device where your wallet opens, go to Settings › Devices › Add a device. Scan its QR code
            with this device&apos;s camera, or type the code it shows.
          </p>
          <label htmlFor={inputId}>Code from your other device</label>
          <input
            id={inputId}
            className="input link-code-input"
            value={code}
            onChange={(event) => setCode(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            inputMode="text"
            maxLength={12}
            aria-describedby={hintId}
            aria-invalid={isDialError(error, 'invalid_data') || isDialError(error, 'device_link_not_found')}
            // biome-ignore lint/a11y/noAutofocus: the screen's one field, opened to be filled.
            autoFocus
          />
          <p className="hint" id={hintId}>
            8 letters and digits, like ACDE-FGHJ. It works once, for 5 minutes.
          </p>
          <div className="actions">
            <button type="submit" className="button button-primary" aria-disabled={step.kind === 'claiming'}>
              {step.kind === 'claiming' ? 'Checking…' : 'Continue'}
            </button>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Not now
            </button>
          </div>
        </form>
      )}
      {(step.kind === 'waiting' || step.kind === 'finishing') && (
        <>
          <p>
            Check that <strong>{step.link.ownerName}</strong> shows the same words, in this order, then
            confirm there:
          </p>
          <Words words={step.link.words} />
          <p role="status">
            {step.kind === 'finishing' ? 'Setting up this device…' : 'Waiting for your other device…'}
          </p>
          {step.kind === 'waiting' && (
            <div className="actions">
              <button type="button" className="button button-secondary" onClick={() => void cancel()}>
                Cancel
              </button>
            </div>
          )}
        </>
      )}
      {step.kind === 'done' && (
        <>
          <p role="status" className="message message-success">
            This device can now open your wallet. You can remove it any time in Settings › Devices, on any of
            your devices.
          </p>
          <div className="actions">
            <button type="button" className="button button-primary" onClick={onLinked}>
              Open my wallet
            </button>
          </div>
        </>
      )}
      {step.kind === 'ended' && (
        <>
          <p role="status">
            {step.why === 'expired'
              ? 'The code expired (codes last 5 minutes). Start again on your other device.'
              : 'This device was not added.'}
          </p>
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => {
                setError(null);
                setCode('');
                setStep({ kind: 'enter' });
              }}
            >
              Enter another code
            </button>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Not now
            </button>
          </div>
        </>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </Screen>
  );
}
