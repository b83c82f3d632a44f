import { useRef } from 'react';
import type { Chain } from 'viem';
import { explorerName, explorerTxUrl } from '../chain/explorerLink';
import { formatExactAmount } from '../chain/formatExactAmount';
import { RecoveryReminder } from '../recovery/RecoveryReminder';
import { ErrorMessage } from '../ui/ErrorMessage';
import { useFocusOnMount } from '../ui/useFocusOnMount';
import { describeRecipient } from './describeRecipient';
import { assetUnits, type SendPlan } from './useSendForm';
import type { SendProgress } from './useSendTransfer';

type SentProgress = Extract<SendProgress, { hash: `0x${string}` }>;

interface SendStatusProps {
  plan: SendPlan;
  progress: SentProgress;
  onDone(): void;
}

const STATUS_TEXT: Record<Exclude<SentProgress['phase'], 'confirmed'>, string> = {
  pending: 'Pending: waiting for the network to include it.',
  failed: 'Failed: the network did not carry out this transfer. Nothing was moved except the network fee.',
  'timed-out':
    'Still pending after 5 minutes. It may yet go through: check the block explorer or your activity later.',
};

/** After the send: the transaction's status until it is mined, and where to see it. */
export function SendStatus({ plan, progress, onDone }: SendStatusProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(heading);
  const units = assetUnits(plan.asset, plan.chain);
  const final = progress.phase !== 'pending';

  return (
    <div className="send-status">
      <h2 ref={heading} tabIndex={-1}>
        {formatExactAmount(plan.amount, units)} sent on {plan.chain.name}
      </h2>
      <p
        className={`send-status-line send-status-${progress.phase}`}
        role="status"
        aria-live="polite"
        aria-label="Transfer status"
      >
        {progress.phase === 'pending' && <span className="spinner" aria-hidden="true" />}
        {progress.phase === 'confirmed'
          ? `Confirmed. Sent ${formatExactAmount(plan.amount, units)} to ${describeRecipient(plan.recipient)}.`
          : STATUS_TEXT[progress.phase]}
      </p>
      <TransactionLink chain={plan.chain} hash={progress.hash} />
      {/* Real value just moved: without recovery, say what is at stake (test networks hold none). */}
      {!plan.chain.testnet && <RecoveryReminder atSend />}
      {progress.recordError !== null && (
        <>
          <p className="hint">The transfer went out, but your activity list could not be updated:</p>
          <ErrorMessage error={progress.recordError} />
        </>
      )}
      <div className="actions">
        <button
          type="button"
          className={final ? 'button button-primary' : 'button button-secondary'}
          onClick={onDone}
        >
          {final ? 'Done' : 'Back to wallet'}
        </button>
      </div>
    </div>
  );
}

function TransactionLink({ chain, hash }: { chain: Chain; hash: `0x${string}` }) {
  const url = explorerTxUrl(chain, hash);
  return (
    <div className="send-hash">
      <figure className="send-hash-value" aria-label="Transaction hash">
        <figcaption className="label">Transaction</figcaption>
        <code className="break-anywhere">{hash}</code>
      </figure>
      {url !== undefined && (
        <a href={url} target="_blank" rel="noopener noreferrer">
          View on {explorerName(chain)}
        </a>
      )}
    </div>
  );
}
