import { DialError, shortenAddress } from '@dial/core';
import type { FormEvent, ReactNode } from 'react';
import type { Chain } from 'viem';
import { formatBalance } from '../chain/formatBalance';
import { PhoneField } from '../sign-in/PhoneField';
import { ErrorMessage } from '../ui/ErrorMessage';
import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';
import { amountInputText } from './amount';
import { shortfallError } from './feePayment';
import { formatFeeMax } from './formatFeeMax';
import type { RecipientMode } from './recipient';
import type { SendForm as SendFormState } from './useSendForm';

interface SendFormProps {
  form: SendFormState;
  chain: Chain;
  hasUsdc: boolean;
  onReview(): void;
  /** "Review" was pressed and waits for the fee estimate or the look-up. */
  reviewWaiting: boolean;
  onCancel(): void;
  /** Reads the balances again (after they failed to load). */
  onRetryBalance(): void;
  /** Offered under the insufficient-balance message: adding the asset that is short (its symbol). */
  fundsOffer?: (asset: string | undefined) => ReactNode;
}

/** The send form: who to pay (a number or an address), what, how much, and the network fee. */
export function SendForm({
  form,
  chain,
  hasUsdc,
  onReview,
  reviewWaiting,
  onCancel,
  onRetryBalance,
  fundsOffer,
}: SendFormProps) {
  const { draft, update, units } = form;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onReview();
  };

  return (
    <form className="form send-form" onSubmit={submit} noValidate>
      <p className="network-badge send-network">On {chain.name}</p>

      <fieldset className="send-fieldset">
        <legend className="label">Send to</legend>
        <div className="send-choices">
          <Choice
            name="recipient-mode"
            value="phone"
            checked={draft.mode === 'phone'}
            onChange={(mode) => update({ mode })}
          >
            A phone number
          </Choice>
          <Choice
            name="recipient-mode"
            value="address"
            checked={draft.mode === 'address'}
            onChange={(mode) => update({ mode })}
          >
            A wallet address
          </Choice>
        </div>
      </fieldset>

      {draft.mode === 'phone' ? (
        <>
          <PhoneField
            countryCode={draft.countryCode}
            value={draft.phone}
            onChange={({ phone, countryCode }) => update({ phone, countryCode })}
            error={form.recipientError}
            disabled={false}
            hint="The number the person signed in to Dial with."
          />
          <LookupResult form={form} />
        </>
      ) : (
        <div className="field">
          <label className="label" htmlFor="recipient-address">
            Recipient address
          </label>
          <input
            id="recipient-address"
            className="input send-address"
            type="text"
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            placeholder="0x…"
            value={draft.address}
            onChange={(event) => update({ address: event.target.value })}
            aria-invalid={form.recipientError !== null}
            aria-describedby={fieldMessageId('recipient-address', form.recipientError)}
          />
          <FieldMessage
            fieldId="recipient-address"
            error={form.recipientError}
            hint={`A wallet address on ${chain.name}: 0x and 40 letters and digits.`}
          />
        </div>
      )}

      <div className="field">
        <label className="label" htmlFor="send-asset">
          Asset
        </label>
        <select
          id="send-asset"
          className="input select"
          value={form.asset}
          onChange={(event) => update({ asset: event.target.value === 'usdc' ? 'usdc' : 'native' })}
        >
          <option value="native">{chain.nativeCurrency.symbol}</option>
          {hasUsdc && <option value="usdc">USDC</option>}
        </select>
      </div>

      <div className="field">
        <label className="label" htmlFor="send-amount">
          Amount ({units.symbol})
        </label>
        <div className="send-amount-row">
          <input
            id="send-amount"
            className="input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0.00"
            value={draft.amount}
            onChange={(event) => update({ amount: event.target.value })}
            aria-invalid={form.amountError !== null}
            aria-describedby={fieldMessageId('send-amount', form.amountError)}
          />
          <button
            type="button"
            className="button button-secondary"
            aria-disabled={form.max === null}
            onClick={() => {
              if (form.max !== null) update({ amount: amountInputText(form.max, units.decimals) });
            }}
          >
            Max
          </button>
        </div>
        <FieldMessage fieldId="send-amount" error={form.amountError} hint={availableText(form)} />
      </div>

      {form.balanceError !== null && (
        <div className="send-fee">
          <ErrorMessage error={form.balanceError} />
          <button type="button" className="button button-link" onClick={onRetryBalance}>
            Load the balance again
          </button>
        </div>
      )}

      <FeeLine form={form} chain={chain} />

      {form.enough === false && (
        <>
          <ErrorMessage
            error={
              form.shortfall !== null ? shortfallError(form.shortfall) : new DialError('insufficient_balance')
            }
          />
          {fundsOffer?.(form.shortfall?.add)}
        </>
      )}

      <div className="actions">
        <button
          type="submit"
          className="button button-primary"
          aria-disabled={reviewWaiting}
          // Nothing can be sent before the balance is known.
          disabled={form.balanceError !== null}
        >
          {reviewWaiting ? 'Checking…' : 'Review'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Back
        </button>
      </div>
    </form>
  );
}

interface ChoiceProps {
  name: string;
  value: RecipientMode;
  checked: boolean;
  onChange(value: RecipientMode): void;
  children: string;
}

function Choice({ name, value, checked, onChange, children }: ChoiceProps) {
  return (
    <label className="send-choice">
      <input type="radio" name={name} value={value} checked={checked} onChange={() => onChange(value)} />
      {children}
    </label>
  );
}

/** What the number resolved to, announced politely as it arrives. */
function LookupResult({ form }: { form: SendFormState }) {
  const { lookup, phone } = form;
  const current = phone.ok && lookup.status !== 'idle' && lookup.e164 === phone.e164;
  return (
    <div className="send-lookup" role="status" aria-live="polite" aria-label="Recipient">
      {current && lookup.status === 'loading' && <p className="hint">Looking up {phone.display}…</p>}
      {current && lookup.status === 'found' && (
        <p className="send-found">
          Dial user {lookup.recipient.phone} · wallet{' '}
          <span className="nowrap">{shortenAddress(lookup.recipient.address)}</span>
        </p>
      )}
      {current && lookup.status === 'failed' && <ErrorMessage error={lookup.error} />}
    </div>
  );
}

function availableText(form: SendFormState): string {
  if (form.balanceError !== null) return 'Your balance could not be read.';
  if (form.funds === null) return 'Loading your balance…';
  const value = form.asset === 'usdc' ? (form.funds.usdc ?? 0n) : form.funds.native;
  return `Available: ${formatBalance(value, form.units)}`;
}

/**
 * The network fee: free and who pays it when the operator does; else the estimate, paid in the native
 * currency, with a loading and an error state, and why the operator does not pay it now when that is a
 * limit reached.
 */
function FeeLine({ form, chain }: { form: SendFormState; chain: Chain }) {
  const { fee, estimate, payment } = form;
  return (
    <div className="send-fee">
      <p role="status" aria-live="polite" aria-label="Network fee">
        <span className="send-fee-label">Network fee: </span>
        {payment.by === 'operator'
          ? `free, paid by ${payment.operatorName}`
          : estimate !== null
            ? `up to ${formatFeeMax(estimate.fee, chain.nativeCurrency)}`
            : fee.state.status === 'failed'
              ? 'could not be estimated'
              : 'estimating…'}
      </p>
      {payment.by === 'wallet' && form.notSponsored !== null && (
        <p className="hint">{form.notSponsored.message}</p>
      )}
      {/* With the balance unreadable too, the network's problem is said once, by the balance's message. */}
      {fee.state.status === 'failed' && estimate === null && form.balanceError === null && (
        <>
          <ErrorMessage error={fee.state.error} />
          <button type="button" className="button button-link" onClick={fee.retry}>
            Estimate again
          </button>
        </>
      )}
    </div>
  );
}
