import { isDialError, shortenAddress } from '@dial/core';
import { type ReactNode, useRef } from 'react';
import { formatExactAmount } from '../chain/formatExactAmount';
import { ErrorMessage } from '../ui/ErrorMessage';
import { useFocusOnMount } from '../ui/useFocusOnMount';
import { formatFeeMax } from './formatFeeMax';
import { assetUnits, type SendPlan } from './useSendForm';

interface SendReviewProps {
  plan: SendPlan;
  /** Working: re-checking the balance or signing. */
  busy: boolean;
  busyText: string;
  error: unknown;
  /** Offered when the send failed for lack of funds (adding funds). */
  fundsOffer?: ReactNode;
  onConfirm(): void;
  onBack(): void;
}

/** The confirmation step: exactly what will happen, before anything is signed. */
export function SendReview({ plan, busy, busyText, error, fundsOffer, onConfirm, onBack }: SendReviewProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(heading);
  const units = assetUnits(plan.asset, plan.chain);
  const { recipient } = plan;

  return (
    <div className="send-review">
      <h2 ref={heading} tabIndex={-1}>
        Check and confirm
      </h2>
      <dl className="send-summary">
        <div>
          <dt>To</dt>
          <dd>
            {recipient.phoneDisplay !== undefined && (
              <span className="send-summary-main">{recipient.phoneDisplay}</span>
            )}
            <span className="send-summary-address" title={recipient.address}>
              {recipient.phoneDisplay !== undefined
                ? `wallet ${shortenAddress(recipient.address)}`
                : recipient.address}
            </span>
          </dd>
        </div>
        <div>
          <dt>Network</dt>
          <dd>{plan.chain.name}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd className="send-summary-main">{formatExactAmount(plan.amount, units)}</dd>
        </div>
        <div>
          <dt>Network fee</dt>
          <dd>up to {formatFeeMax(plan.estimate.fee, plan.chain.nativeCurrency)}</dd>
        </div>
      </dl>
      <p className="hint">A transfer cannot be undone once it is sent.</p>
      {error !== null && <ErrorMessage error={error} />}
      {isDialError(error, 'insufficient_balance') && fundsOffer}
      <p className="feedback" role="status" aria-live="polite">
        {busy ? busyText : ''}
      </p>
      <div className="actions">
        <button
          type="button"
          className="button button-primary"
          aria-disabled={busy}
          onClick={() => {
            if (!busy) onConfirm();
          }}
        >
          {busy ? 'Sending…' : 'Confirm and send'}
        </button>
        <button type="button" className="button button-secondary" onClick={onBack} disabled={busy}>
          Back
        </button>
      </div>
    </div>
  );
}
