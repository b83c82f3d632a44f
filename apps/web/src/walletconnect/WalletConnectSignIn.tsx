import { shortenAddress } from '@dial/core';
import { type KeyboardEvent, useEffect, useRef } from 'react';
import { ErrorMessage } from '../ui/ErrorMessage';
import { QrCode } from '../ui/QrCode';
import { useCopyText } from '../ui/useCopyText';
import type { WalletConnectConnection } from './connectWithWalletConnect';
import { useWalletConnectSignIn } from './useWalletConnectSignIn';

export interface WalletConnectSignInProps {
  /** `/api/config`'s `walletConnect`. */
  projectId: string;
  relayUrl: string;
  /** The chains to propose, e.g. the supported chains' ids. */
  chainIds: readonly number[];
  /** The wallet approved: sign in with `connection.request({ method: 'personal_sign', … })`. */
  onConnected(connection: WalletConnectConnection): void;
  /** The person pressed Cancel (or Escape). */
  onCancel(): void;
}

/**
 * "Connect a wallet on another device": a WalletConnect QR code and its `wc:` link (to copy, or to open in a
 * wallet app on this device), a waiting state, the expiry (after 5 minutes) with "Try again", and Cancel;
 * Escape cancels too. Load it lazily: it brings WalletConnect's SDK.
 */
export function WalletConnectSignIn({
  projectId,
  relayUrl,
  chainIds,
  onConnected,
  onCancel,
}: WalletConnectSignInProps) {
  const { phase, retry } = useWalletConnectSignIn({ projectId, relayUrl, chainIds, onConnected });
  const linkRef = useRef<HTMLElement>(null);
  const retryRef = useRef<HTMLButtonElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const uri = phase.name === 'waiting' ? phase.uri : '';
  const { copy, feedback } = useCopyText(uri, linkRef, 'link');

  // Focus follows the panel: its heading when it (re)starts, so Escape still reaches it after "Try again";
  // "Try again" itself after a failure.
  useEffect(() => {
    if (phase.name === 'starting') headingRef.current?.focus();
    if (phase.name === 'failed') retryRef.current?.focus();
  }, [phase.name]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      onCancel();
    }
  };

  return (
    <section className="panel walletconnect" aria-labelledby="walletconnect-title" onKeyDown={onKeyDown}>
      <h2 id="walletconnect-title" ref={headingRef} tabIndex={-1}>
        Connect a wallet with WalletConnect
      </h2>
      {phase.name === 'starting' && (
        <p className="row" role="status">
          <span className="spinner" aria-hidden="true" />
          Preparing a QR code…
        </p>
      )}
      {phase.name === 'waiting' && (
        <>
          <p className="hint">
            Scan this code with your wallet app, or copy the link into it. The code works for 5 minutes.
          </p>
          <QrCode text={phase.uri} label="WalletConnect QR code to connect your wallet" />
          <figure className="address-full" aria-label="WalletConnect link">
            <code ref={linkRef}>{phase.uri}</code>
          </figure>
          <div className="row">
            <button type="button" className="button button-secondary" onClick={() => void copy()}>
              Copy link
            </button>
            <a className="button button-link" href={phase.uri}>
              Open in a wallet app on this device
            </a>
          </div>
          <p className="feedback" role="status">
            {feedback}
          </p>
          <p className="row" role="status">
            <span className="spinner" aria-hidden="true" />
            Waiting for your wallet to approve…
          </p>
        </>
      )}
      {phase.name === 'connected' && (
        <p className="row" role="status">
          Connected to {shortenAddress(phase.connection.address)}. Confirm the sign-in in your wallet.
        </p>
      )}
      {phase.name === 'failed' && (
        <>
          <ErrorMessage error={phase.error} />
          <button ref={retryRef} type="button" className="button button-primary" onClick={retry}>
            Try again
          </button>
        </>
      )}
      <button type="button" className="button button-secondary" onClick={onCancel}>
        Cancel
      </button>
    </section>
  );
}
