import { isDialError, shortenAddress } from '@dial/core';
import { type ReactNode, useEffect, useRef } from 'react';
import { formatExactAmount } from '../chain/formatExactAmount';
import { usePrices } from '../prices/usePrices';
import { ErrorMessage } from '../ui/ErrorMessage';
import { useFocusOnMount } from '../ui/useFocusOnMount';
import { feeValueText } from './feeValue';
import { formatFeeMax } from './formatFeeMax';
import { loadSponsoredSend } from './sendTransfer';
import { assetUnits, type SendPlan } from './useSendForm';

interface SendReviewProps {
  plan: SendPlan;
  /** Working: re-checking the balance or signing. */
  busy: boolean;
  busyText: string;
  error: unknown;
  /** Offered when the send failed for lack of funds (adding funds). */
  fundsOffer?: ReactNode;
  /**
   * After the operator refused to pay the fee (its limits): send with the wallet paying it, offered only
   * when the wallet's balance covers that; null when it does not (then `selfPaidProblem` says why).
   */
  onPayFeeYourself: (() => void) | null;
  /** Why the wallet cannot pay the fee itself either (its native balance), when it cannot. */
  selfPaidProblem: unknown;
  onConfirm(): void;
  onBack(): void;
}

/** The refusals after which the same send can go out with the wallet paying its own fee. */
const SPONSOR_REFUSALS = [
  'sponsor_account_limit',
  'sponsor_daily_cap',
  'sponsor_not_allowed',
  'sponsor_unavailable',
  'bundler_unavailable',
] as const;

/** Whether the send failed because the operator would not (or could not) pay its fee. */
export function isSponsorRefusal(error: unknown): boolean {
  return SPONSOR_REFUSALS.some((code) => isDialError(error, code));
}

/** The confirmation step: exactly what will happen, before anything is signed. */
export function SendReview({
  plan,
  busy,
  busyText,
  error,
  fundsOffer,
  onPayFeeYourself,
  selfPaidProblem,
  onConfirm,
  onBack,
}: SendReviewProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(heading);
  const units = assetUnits(plan.asset, plan.chain);
  const { recipient, payment } = plan;
  const prices = usePrices();
  const sponsored = payment.by === 'operator';
  // The user operation's code is needed by "Confirm": fetched while the person reads the review.
  useEffect(() => {
    if (sponsored) loadSponsoredSend().catch(() => undefined);
  }, [sponsored]);
  const feeValue = feeValueText(plan.estimate.fee, plan.chain, prices);
  const refused = !busy && sponsored && isSponsorRefusal(error);

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
          <dd>
            {payment.by === 'operator'
              ? `free, paid by ${payment.operatorName}`
              : `up to ${formatFeeMax(plan.estimate.fee, plan.chain.nativeCurrency)}${feeValue === null ? '' : ` (${feeValue})`}, paid from this wallet`}
          </dd>
        </div>
      </dl>
      <p className="hint">A transfer cannot be undone once it is sent.</p>
      {error !== null && <ErrorMessage error={error} />}
      {isDialError(error, 'insufficient_balance') && fundsOffer}
      {refused && onPayFeeYourself !== null && (
        <button type="button" className="button button-secondary" onClick={onPayFeeYourself}>
          Pay the fee from this wallet (up to {formatFeeMax(plan.estimate.fee, plan.chain.nativeCurrency)})
        </button>
      )}
      {refused && onPayFeeYourself === null && selfPaidProblem !== null && (
        <>
          <ErrorMessage error={selfPaidProblem} />
          {fundsOffer}
        </>
      )}
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
