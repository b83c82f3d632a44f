import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { Chain, PublicClient } from 'viem';
import type { BalanceState } from '../chain/useBalance';
import type { UsdcBalanceState } from '../chain/useUsdcBalance';
import { Screen } from '../ui/Screen';
import { SendForm } from './SendForm';
import { SendReview } from './SendReview';
import { SendStatus } from './SendStatus';
import { type SendPlan, useSendForm } from './useSendForm';
import { useSendTransfer } from './useSendTransfer';
import './send.css';

export interface SendScreenProps {
  userId: string;
  address: `0x${string}`;
  /** The network selected on the wallet home: the transfer is made on it. */
  chain: Chain;
  chains: readonly Chain[];
  usdcAddress: `0x${string}` | undefined;
  client: PublicClient;
  nativeBalance: BalanceState;
  usdcBalance: UsdcBalanceState;
  onBalancesChanged(): Promise<void>;
  onClose(): void;
  /** Shown under the insufficient-balance message: a way to add funds (the on-ramp), or nothing. */
  fundsOffer?: ReactNode;
}

/**
 * "Send": the form, then the confirmation, then the transfer's status. Escape or "Back" goes one step back
 * (from the form, to the wallet), except while the transfer is being signed.
 */
export function SendScreen(props: SendScreenProps) {
  const { chain, usdcAddress, onClose } = props;
  const form = useSendForm(props);
  const transfer = useSendTransfer(props);
  const [plan, setPlan] = useState<SendPlan | null>(null);
  const { progress, clearError } = transfer;
  const busy = progress.phase === 'checking' || progress.phase === 'signing';
  const sent = 'hash' in progress;
  const formRoot = useRef<HTMLDivElement>(null);

  const backToForm = useCallback(() => {
    setPlan(null);
    clearError();
    // The form comes back: start again at the screen's heading.
    queueMicrotask(() => document.getElementById('screen-title')?.focus());
  }, [clearError]);

  const back = useCallback(() => {
    if (busy) return;
    if (plan !== null && !sent) backToForm();
    else onClose();
  }, [busy, plan, sent, backToForm, onClose]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      back();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [back]);

  /** "Review" pressed while the fee or the recipient was still being worked out: go on once they are. */
  const [reviewWaiting, setReviewWaiting] = useState(false);

  const review = () => {
    const next = form.review();
    setReviewWaiting(next === 'wait');
    if (next === 'wait') return;
    if (next !== null) {
      setPlan(next);
      return;
    }
    // Show the person the first problem.
    queueMicrotask(() => {
      const target = formRoot.current?.querySelector<HTMLElement>('[aria-invalid="true"], [role="alert"]');
      target?.focus?.();
      target?.scrollIntoView?.({ block: 'center' });
    });
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the form settles, with its latest review.
  useEffect(() => {
    if (reviewWaiting && !form.settling) review();
  }, [reviewWaiting, form.settling]);

  return (
    <Screen title="Send">
      {plan === null ? (
        <div ref={formRoot}>
          <SendForm
            form={form}
            chain={chain}
            hasUsdc={usdcAddress !== undefined}
            onReview={review}
            reviewWaiting={reviewWaiting}
            onCancel={onClose}
            onRetryBalance={() => void props.onBalancesChanged()}
            fundsOffer={props.fundsOffer}
          />
        </div>
      ) : sent ? (
        <SendStatus plan={plan} progress={progress} onDone={onClose} />
      ) : (
        <SendReview
          plan={plan}
          busy={busy}
          busyText={progress.phase === 'checking' ? 'Checking your balance…' : 'Signing and sending…'}
          error={transfer.error}
          fundsOffer={props.fundsOffer}
          onConfirm={() => void transfer.send(plan)}
          onBack={backToForm}
        />
      )}
    </Screen>
  );
}
