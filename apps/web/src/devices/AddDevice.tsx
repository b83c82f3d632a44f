import './devices.css';
import { isDialError, linkWords } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { toDialError } from '../api/describeError';
import { ErrorMessage } from '../ui/ErrorMessage';
import { QrCode } from '../ui/QrCode';
import { Screen } from '../ui/Screen';
import type { DeviceInfo, DeviceLink } from './devicesApi';
import { cancelLinkQuietly, confirmLink, linkUrl, type StartedLink, startLink } from './linkFlow';
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

  const cancel = () => {
    // Once confirming, the share is on its way: "Cancelled" would not be true.
    if (step.kind === 'confirming') return;
    setStep({ kind: 'ended', why: 'cancelled' });
    void cancelLinkQuietly(link?.id ?? null);
  };

  const left = useCountdown(link?.expiresAt ?? null);
  // The steps as the person sees them: confirming is the compare step with its button busy, and the code
  // replaces "Making a code…" in place. Each new one moves the focus back to the heading.
  const shown = step.kind === 'confirming' ? 'compare' : step.kind === 'waiting' ? 'starting' : step.kind;

  return (
    <Screen title="Add a device" step={shown}>
      <p className="lead">
        Your wallet will open on the new device too, with no recovery password. This device stays as it is.
      </p>
      {/* One status line for every step, so each change is read out; never the ticking countdown. */}
      <p role="status" className={step.kind === 'added' ? 'message message-success' : undefined}>
        <StepStatus step={step} left={left} />
      </p>
      {step.kind === 'waiting' && <WaitingForDevice link={step.link} left={left} />}
      {(step.kind === 'compare' || step.kind === 'confirming') && (
        <>
          <p>Check that it shows these words, in this order:</p>
          <Words words={step.words} />
          <p className="hint">
            If the words differ, someone else entered the code: cancel, and nothing is shared.
          </p>
        </>
      )}
      {step.kind !== 'starting' && (
        <div className="actions">
          {step.kind === 'waiting' && (
            <button type="button" className="button button-secondary" onClick={cancel}>
              Cancel
            </button>
          )}
          {(step.kind === 'compare' || step.kind === 'confirming') && (
            <>
              <button
                type="button"
                className="button button-primary"
                aria-disabled={step.kind === 'confirming'}
                onClick={() => void confirm()}
              >
                {step.kind === 'confirming' ? 'Adding…' : 'The words match: add it'}
              </button>
              <button
                type="button"
                className="button button-secondary"
                aria-disabled={step.kind === 'confirming'}
                onClick={cancel}
              >
                They differ: cancel
              </button>
            </>
          )}
          {step.kind === 'added' && (
            <button type="button" className="button button-primary" onClick={onClose}>
              Done
            </button>
          )}
          {step.kind === 'ended' && (
            <>
              <button type="button" className="button button-primary" onClick={() => void start()}>
                Start again
              </button>
              <button type="button" className="button button-secondary" onClick={onClose}>
                Back to settings
              </button>
            </>
          )}
        </div>
      )}
      {error !== null && <ErrorMessage error={error} />}
    </Screen>
  );
}

/** What the status line says at each step; the time left only once, when under a minute. */
function StepStatus({ step, left }: { step: Step; left: number }) {
  switch (step.kind) {
    case 'starting':
      return 'Making a code…';
    case 'waiting':
      return left > 0 && left <= 60
        ? 'Waiting for the new device… Less than a minute left.'
        : 'Waiting for the new device…';
    case 'compare':
      return (
        <>
          <strong>{step.claimant.name}</strong> entered the code.
        </>
      );
    case 'confirming':
      return `Adding ${step.claimant.name}…`;
    case 'added':
      return `${step.device.name} can now open your wallet. You can remove it any time in Settings › Devices.`;
    case 'ended':
      return step.why === 'expired'
        ? 'The code expired (codes last 5 minutes). Nothing was shared.'
        : step.why === 'cancelled'
          ? 'Cancelled. Nothing was shared.'
          : 'No code was made.';
  }
}

/**
 * The QR code, the code to type and how long they last, while the new browser has not entered it. The
 * countdown is a timer, which screen readers leave alone (`aria-live="off"`): its seconds would drown
 * everything else; the status line says once when less than a minute is left.
 */
function WaitingForDevice({ link, left }: { link: StartedLink; left: number }) {
  const url = linkUrl(window.location.origin, link.code);
  return (
    <>
      <ol className="steps">
        <li>On the new device, sign in to Dial with this same account.</li>
        <li>
          Scan this code with its camera, or open{' '}
          <strong className="break-anywhere">{window.location.host}/link</strong> and type the code below.
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
    </>
  );
}

/**
 * Seconds as minutes and seconds, `4:05`: by `Intl.DurationFormat` where the browser has it, in the locale's
 * digits and separator (`4.05` in Finnish), else spelled out as in English.
 *
 * @param locale - The locale (the browser's by default).
 */
export function formatLeft(seconds: number, locale?: string): string {
  const duration = { minutes: Math.floor(seconds / 60), seconds: seconds % 60 };
  const { DurationFormat } = Intl as unknown as { DurationFormat?: DurationFormatConstructor };
  if (DurationFormat !== undefined) {
    return new DurationFormat(locale, { minutes: 'numeric', seconds: '2-digit' }).format(duration);
  }
  return `${duration.minutes}:${String(duration.seconds).padStart(2, '0')}`;
}

/** The part of `Intl.DurationFormat` used here (the TypeScript libs in use do not type it yet). */
type DurationFormatConstructor = new (
  locale: string | undefined,
  options: { minutes: 'numeric'; seconds: '2-digit' },
) => { format(duration: { minutes: number; seconds: number }): string };
