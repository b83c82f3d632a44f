import './devices.css';
import { isDialError } from '@dial/core';
import { type FormEvent, useId, useRef, useState } from 'react';
import { toDialError } from '../api/describeError';
import { ErrorMessage } from '../ui/ErrorMessage';
import { Screen } from '../ui/Screen';
import { type ClaimedLink, cancelLinkQuietly, claimLink, finishLink } from './linkFlow';
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
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);

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
      // Back to the field to correct, with the error read out beside it.
      input.current?.focus();
    }
  };

  /** The code itself was refused (not one, or not a link's): the field says so, and names why. */
  const codeRefused = isDialError(error, 'invalid_data') || isDialError(error, 'device_link_not_found');

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

  const cancel = () => {
    setStep({ kind: 'ended', why: 'cancelled' });
    void cancelLinkQuietly(waiting?.id ?? null);
  };

  // The steps as the person sees them: the form stays while its code is checked, and "Setting up" is the
  // words' step going on. A new one moves the focus to its heading, the form's to its field.
  const shown = step.kind === 'claiming' ? 'enter' : step.kind === 'finishing' ? 'waiting' : step.kind;

  return (
    <Screen title="Open your wallet on this device" focusHeading={shown !== 'enter'} step={shown}>
      {shown === 'enter' && (
        <form className="form" onSubmit={(event) => void claim(event)} noValidate>
          <p className="lead">
            On a device where your wallet opens, go to Settings › Devices › Add a device. Scan its QR code
            with this device&apos;s camera, or type the code it shows.
          </p>
          <div className="field">
            <label className="label" htmlFor={inputId}>
              Code from your other device
            </label>
            <input
              ref={input}
              id={inputId}
              className="input link-code-input"
              value={code}
              onChange={(event) => setCode(event.target.value)}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              inputMode="text"
              maxLength={12}
              aria-describedby={codeRefused ? `${hintId} ${errorId}` : hintId}
              aria-invalid={codeRefused}
              // biome-ignore lint/a11y/noAutofocus: the screen's one field, opened to be filled.
              autoFocus
            />
            <p className="hint" id={hintId}>
              8 letters and digits, like ACDE-FGHJ. It works once, for 5 minutes.
            </p>
          </div>
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
        </>
      )}
      {/*
        One status line for every step, so each change is read out (empty, and out of the layout, while the
        form shows).
      */}
      <p role="status" className={statusClass(step)}>
        {statusText(step)}
      </p>
      {step.kind === 'waiting' && (
        <div className="actions">
          <button type="button" className="button button-secondary" onClick={cancel}>
            Cancel
          </button>
        </div>
      )}
      {step.kind === 'done' && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={onLinked}>
            Open my wallet
          </button>
        </div>
      )}
      {step.kind === 'ended' && (
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
      )}
      {error !== null && <ErrorMessage error={error} id={errorId} />}
    </Screen>
  );
}

/** What the status line says at each step. */
function statusText(step: Step): string {
  switch (step.kind) {
    case 'enter':
      return '';
    case 'claiming':
      return 'Checking the code…';
    case 'waiting':
      return 'Waiting for your other device…';
    case 'finishing':
      return 'Setting up this device…';
    case 'done':
      return 'This device can now open your wallet. You can remove it any time in Settings › Devices, on any of your devices.';
    case 'ended':
      return step.why === 'expired'
        ? 'The code expired (codes last 5 minutes). Start again on your other device.'
        : 'This device was not added.';
  }
}

/** The status line's look: out of the layout while the form shows (it stays in the page, to be heard). */
function statusClass(step: Step): string | undefined {
  if (step.kind === 'enter' || step.kind === 'claiming') return 'visually-hidden';
  return step.kind === 'done' ? 'message message-success' : undefined;
}
