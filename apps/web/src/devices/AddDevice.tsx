import './devices.css';
import { isDialError, linkWords } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toDialError } from '../api/describeError';
import { ErrorMessage } from '../ui/ErrorMessage';
import { QrCode } from '../ui/QrCode';
import { Screen } from '../ui/Screen';
import { cancelDeviceLink, type DeviceInfo, type DeviceLink } from './devicesApi';
import { confirmLink, linkUrl, type StartedLink, startLink } from './linkFlow';
import { useCountdown } from './useCountdown';
import { useLinkUpdates } from './useLinkUpdates';
import { Words } from './Words';

export interface AddDeviceProps {
  userId: string;
  /** Back to where the person came from (settings). */
  onClose(): void;
}

type Step =
  | { kind: 'starting' }
  | { kind: 'waiting'; link: StartedLink }
  | { kind: 'compare'; link: StartedLink; claimant: NonNullable<DeviceLink['claimant']>; words: string[] }
  | { kind: 'confirming'; link: StartedLink; claimant: NonNullable<DeviceLink['claimant']>; words: string[] }
  | { kind: 'added'; device: DeviceInfo }
  | { kind: 'ended'; why: 'expired' | 'cancelled' | 'failed' };

/**
 * "Add a device" on a browser that opens the wallet (`/devices/add`): a QR code and a short code for the new
 * browser, then the words both must show, then the person's confirmation here, which seals the new device's
 * share for that browser alone. No recovery password is needed; the link lasts 5 minutes and works once.
 */
export default function AddDevice({ userId, onClose }: AddDeviceProps) {
  const [step, setStep] = useState<Step>({ kind: 'starting' });
  const [error, setError] = useState<unknown>(null);
  const started = useRef(false);

  const start = useCallback(async () => {
    setError(null);
    setStep({ kind: 'starting' });
    try {
      setStep({ kind: 'waiting', link: await startLink() });
    } catch (caught) {
      setError(toDialError(caught));
      setStep({ kind: 'ended', why: 'failed' });
    }
  }, []);

  useEffect(() => {
    // Once, also under StrictMode's double effects: each start makes a link on the server.
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);

  const link = step.kind === 'waiting' || step.kind === 'compare' ? step.link : null;
  useLinkUpdates(
    link?.id ?? null,
    step.kind === 'waiting' || step.kind === 'compare',
    (update) => {
      if (link === null) return;
      if (update.state === 'expired' || update.state === 'cancelled') {
        setStep({ kind: 'ended', why: update.state });
        return;
      }
      if (step.kind === 'waiting' && update.state === 'claimed' && update.claimant !== null) {
        const claimant = update.claimant;
        void linkWords(link.id, link.keys.publicKey, claimant.publicKey).then((words) =>
          setStep({ kind: 'compare', link, claimant, words }),
        );
      }
    },
    () => {
      // A failed read is tried again at the next tick; the countdown still says how long is left.
    },
  );

  const confirm = async () => {
    if (step.kind !== 'compare') return;
    setError(null);
    setStep({ ...step, kind: 'confirming' });
    try {
      const device = await confirmLink(userId, step.link, step.claimant);
      setStep({ kind: 'added', device });
    } catch (caught) {
      const failed = toDialError(caught);
      setError(failed);
      if (isDialError(failed, 'device_link_not_found')) setStep({ kind: 'ended', why: 'expired' });
      else setStep({ ...step, kind: 'compare' });
    }
  };

  const cancel = async () => {
    const current = step.kind === 'waiting' || step.kind === 'compare' ? step.link : null;
    setStep({ kind: 'ended', why: 'cancelled' });
    if (current !== null) {
      try {
        await cancelDeviceLink(current.id);
      } catch {
        // It expires by itself within 5 minutes, and nothing can be confirmed without this browser.
      }
    }
  };

  return (
    <Screen title="Add a device">
      <p className="lead">
        Your wallet will open on the new device too, with no recovery password. This device stays as it is.
      </p>
      {step.kind === 'starting' && <p role="status">Making a code…</p>}
      {step.kind === 'waiting' && <WaitingForDevice link={step.link} onCancel={() => void cancel()} />}
      {(step.kind === 'compare' || step.kind === 'confirming') && (
        <>
          <p>
            <strong>{step.claimant.name}</strong> entered the code. Check that it shows these words, in this
            order:
          </p>
          <Words words={step.words} />
          <p className="hint">
            If the words differ, someone else entered the code: cancel, and nothing is shared.
          </p>
          <div className="actions">
            <button
              type="button"
              className="button button-primary"
              aria-disabled={step.kind === 'confirming'}
              onClick={() => void confirm()}
            >
              {step.kind === 'confirming' ? 'Adding…' : 'The words match: add it'}
            </button>
            <button type="button" className="button button-secondary" onClick={() => void cancel()}>
              They differ: cancel
            </button>
          </div>
        </>
      )}
      {step.kind === 'added' && (
        <>
          <p role="status" className="message message-success">
            {step.device.name} can now open your wallet. You can remove it any time in Settings › Devices.
          </p>
          <div className="actions">
            <button type="button" className="button button-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
      {step.kind === 'ended' && (
        <>
          {step.why !== 'failed' && (
            <p role="status">
              {step.why === 'expired'
                ? 'The code expired (codes last 5 minutes). Nothing was shared.'
                : 'Cancelled. Nothing was shared.'}
            </p>
          )}
          <div className="actions">
            <button type="button" className="button button-primary" onClick={() => void start()}>
              Start again
            </button>
            <button type="button" className="button button-secondary" onClick={onClose}>
              Back to settings
            </button>
          </div>
        </>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </Screen>
  );
}

/** The QR code, the code to type and how long they last, while the new browser has not entered it. */
function WaitingForDevice({ link, onCancel }: { link: StartedLink; onCancel(): void }) {
  const left = useCountdown(link.expiresAt);
  const url = linkUrl(window.location.origin, link.code);
  return (
    <>
      <ol className="steps">
        <li>On the new device, sign in to Dial with this same account.</li>
        <li>
          Scan this code with its camera, or open <strong>{window.location.host}/link</strong> and type the
          code below.
        </li>
      </ol>
      <div className="link-code-box">
        <QrCode text={url} label={`QR code to add a device, code ${link.code}`} />
        <p className="link-code">
          <span className="visually-hidden">Code: </span>
          {link.code}
        </p>
        <p className="hint" role="timer" aria-live="off">
          {left > 0 ? `Expires in ${formatLeft(left)}` : 'Expired'}
        </p>
      </div>
      <p role="status">Waiting for the new device…</p>
      <div className="actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </>
  );
}

/** Seconds as `4:05`. */
export function formatLeft(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
