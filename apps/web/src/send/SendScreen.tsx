import { type ReactNode, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Chain } from 'viem';
import type { BalanceState } from '../chain/useBalance';
import type { UsdcBalanceState } from '../chain/useUsdcBalance';
import { closeScreen, openScreen, replaceScreen } from '../navigation/navigate';
import { SCREEN_PATHS } from '../navigation/routes';
import { Screen } from '../ui/Screen';
import { findShortfall, shortfallError } from './feePayment';
import { SendForm } from './SendForm';
import { isSponsorRefusal, SendReview } from './SendReview';
import { SendStatus } from './SendStatus';
import { clearSendDraft, readSendDraft, saveSendDraft } from './sendDraftStore';
import { readSendLink } from './sendLink';
import type { WalletSigner } from './sendTransfer';
import { blankSendDraft, type SendDraft, type SendPlan, useSendForm } from './useSendForm';
import { useSendTransfer } from './useSendTransfer';
import './send.css';
import type { ChainClient } from '../chain/createChainClient';

export interface SendScreenProps {
  userId: string;
  /** The person's own number (E.164), or null: the form asks for a number in its country first. */
  ownPhone: string | null;
  /** Who signs: the embedded wallet's key, or the person's own wallet app. */
  signer: WalletSigner;
  address: `0x${string}`;
  /** The network selected on the wallet home: the transfer is made on it. */
  chain: Chain;
  chains: readonly Chain[];
  usdcAddress: `0x${string}` | undefined;
  client: ChainClient;
  nativeBalance: BalanceState;
  usdcBalance: UsdcBalanceState;
  onBalancesChanged(): Promise<void>;
  /** The step the URL shows: `/send` the form, `/send/review` the confirmation (then the status). */
  step: 'form' | 'review';
  /** Selects another network (the one a link or a kept draft names). */
  onChainChange(chainId: number): void;
  /** Whether USDC can be sent on the chain with this id. */
  hasUsdc(chainId: number): boolean;
  /** Starts a new send after a finished one (the form came back by the browser's Back). */
  onRestart(): void;
  /**
   * Shown under the insufficient-balance message: a way to add funds (the on-ramp), or nothing; opened on
   * `asset` (its symbol: the one that is short) on the send's network when given.
   */
  fundsOffer?: (asset: string | undefined) => ReactNode;
}

/** What the form opens with, and the network it is on. */
interface SendStart {
  draft: SendDraft;
  chainId: number;
  /** What a link asked for that could not be filled in. */
  problems: string[];
  fromLink: boolean;
}

const SEND = SCREEN_PATHS.send;
const REVIEW = SCREEN_PATHS['send-review'];

/**
 * "Send": the form (`/send`), then the confirmation (`/send/review`), then the transfer's status. The
 * browser's Back and Forward and Escape move between the steps, except while the transfer is being signed;
 * "Back" on the form and "Done" return to where the send was opened from. The form opens with a link's
 * values (`/send?to=…&amount=…&asset=…&network=…`), else the draft kept in this tab (a reload), else empty.
 */
export function SendScreen(props: SendScreenProps) {
  const { userId, chain, usdcAddress, step, onChainChange, onRestart } = props;
  const [start] = useState(() => openingDraft(props));
  const form = useSendForm({ ...props, initial: start.draft, revealRecipient: start.fromLink });
  const transfer = useSendTransfer(props);
  const [plan, setPlan] = useState<SendPlan | null>(null);
  const { progress, clearError } = transfer;
  // The operator refused to pay a fee it was offering: ask again what it offers, so the form says so.
  const { refreshFeeOptions } = form;
  const refused = isSponsorRefusal(transfer.error);
  useEffect(() => {
    if (refused) refreshFeeOptions();
  }, [refused, refreshFeeOptions]);
  const busy =
    progress.phase === 'checking' || progress.phase === 'signing' || progress.phase === 'submitted';
  const sent = 'hash' in progress;
  const formRoot = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, as the screen opens.
  useLayoutEffect(() => {
    if (start.chainId !== chain.id) onChainChange(start.chainId);
    // The link's values are in the form (and kept below): a reload must not write them over later edits.
    if (start.fromLink) replaceScreen(SEND);
  }, []);

  // Kept across a reload of the tab until the transfer is sent (or the send cancelled).
  useEffect(() => {
    if (!sent) saveSendDraft(userId, { draft: form.draft, chainId: chain.id });
  }, [userId, form.draft, chain.id, sent]);
  useEffect(() => {
    if (sent) clearSendDraft();
  }, [sent]);

  const backToForm = useCallback(() => {
    setPlan(null);
    clearError();
    // The form comes back: start again at the screen's heading.
    queueMicrotask(() => document.getElementById('screen-title')?.focus());
  }, [clearError]);

  const cancel = useCallback(() => {
    clearSendDraft();
    closeScreen(SEND, SCREEN_PATHS.home);
  }, []);
  const done = useCallback(() => closeScreen(SEND, SCREEN_PATHS.home), []);

  const back = useCallback(() => {
    if (busy) return;
    if (sent) done();
    else if (plan !== null) closeScreen(REVIEW, SEND);
    else cancel();
  }, [busy, plan, sent, done, cancel]);

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
  /** The URL shows the confirmation but there is no plan yet (a reload, Forward): review once ready. */
  const [autoReview, setAutoReview] = useState(false);

  const review = () => {
    const next = form.review();
    setReviewWaiting(next === 'wait');
    if (next === 'wait') return;
    if (next !== null) {
      setPlan(next);
      if (step === 'form') openScreen(REVIEW);
      return;
    }
    if (step === 'review') replaceScreen(SEND);
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

  // The URL changed (Back, Forward, a reload): show its step.
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL's step only.
  useEffect(() => {
    if (step === 'form') {
      // Signing cannot be stopped half-way: the confirmation stays until it is done.
      if (busy) replaceScreen(REVIEW);
      else if (sent) onRestart();
      else if (plan !== null) backToForm();
    } else if (plan === null) {
      setAutoReview(true);
    }
  }, [step]);

  const lookupSettled =
    form.draft.mode !== 'phone' ||
    !form.phone.ok ||
    ((form.lookup.status === 'found' || form.lookup.status === 'failed') &&
      form.lookup.e164 === form.phone.e164);
  const readyToReview =
    !form.settling && lookupSettled && (form.funds !== null || form.balanceError !== null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once the form is ready, with its latest review.
  useEffect(() => {
    if (!autoReview || !readyToReview) return;
    setAutoReview(false);
    if (step !== 'review' || plan !== null) return;
    if (isBlank(form.draft)) replaceScreen(SEND);
    else review();
  }, [autoReview, readyToReview]);

  // After the operator refused to pay the fee: whether the wallet can pay it itself, and if not, why not.
  const selfPaidShortfall =
    plan !== null && form.funds !== null
      ? findShortfall({
          ...plan,
          funds: form.funds,
          payment: { by: 'wallet' },
          selfPaidFee: plan.estimate.fee,
        })
      : null;
  const payFeeYourself =
    plan !== null && form.funds !== null && selfPaidShortfall === null
      ? () => {
          clearError();
          setPlan({ ...plan, payment: { by: 'wallet' } });
        }
      : null;

  const showsReview = plan !== null && (step === 'review' || busy || sent);
  const pageTitle = !showsReview ? 'Send' : sent ? 'Sent' : 'Check and confirm';

  return (
    <Screen title="Send" pageTitle={pageTitle}>
      {!showsReview ? (
        <div ref={formRoot}>
          {start.problems.map((problem) => (
            <p key={problem} className="message message-error" role="alert">
              {problem}
            </p>
          ))}
          <SendForm
            form={form}
            chain={chain}
            hasUsdc={usdcAddress !== undefined}
            onReview={review}
            reviewWaiting={reviewWaiting || autoReview}
            onCancel={cancel}
            onRetryBalance={() => void props.onBalancesChanged()}
            {...(props.fundsOffer !== undefined ? { fundsOffer: props.fundsOffer } : {})}
          />
        </div>
      ) : sent ? (
        <SendStatus plan={plan} progress={progress} onDone={done} />
      ) : (
        <SendReview
          plan={plan}
          busy={busy}
          busyText={
            progress.phase === 'checking'
              ? 'Checking your balance…'
              : progress.phase === 'submitted'
                ? 'Sent. Waiting for the network to include it…'
                : props.signer === 'external'
                  ? 'Confirm the transfer in your wallet…'
                  : 'Signing and sending…'
          }
          error={transfer.error}
          fundsOffer={props.fundsOffer?.((selfPaidShortfall ?? form.shortfall)?.add)}
          onPayFeeYourself={payFeeYourself}
          selfPaidProblem={selfPaidShortfall === null ? null : shortfallError(selfPaidShortfall)}
          onConfirm={() => void transfer.send(plan)}
          onBack={() => closeScreen(REVIEW, SEND)}
        />
      )}
    </Screen>
  );
}

/** The form's first values: a link's, else the draft kept in this tab, else an empty form. */
function openingDraft({ userId, ownPhone, chain, chains, hasUsdc }: SendScreenProps): SendStart {
  const blank = blankSendDraft(ownPhone);
  const link = readSendLink(window.location.search, {
    chains,
    chainId: chain.id,
    blank,
    hasUsdc,
  });
  if (link !== null) return { ...link, fromLink: true };
  const kept = readSendDraft(userId);
  if (kept !== null && chains.some((candidate) => candidate.id === kept.chainId)) {
    return { ...kept, problems: [], fromLink: false };
  }
  return { draft: blank, chainId: chain.id, problems: [], fromLink: false };
}

function isBlank(draft: SendDraft): boolean {
  const recipient = draft.mode === 'phone' ? draft.phone : draft.address;
  return recipient.trim() === '' && draft.amount.trim() === '';
}
