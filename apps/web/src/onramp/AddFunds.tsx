import { normalizeOnrampAmount } from '@dial/core';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { AppConfig, OnrampAssetCode, OnrampInfo } from '../api/types';
import { formatBalance } from '../chain/formatBalance';
import { walletChains } from '../chain/walletChains';
import { ErrorMessage } from '../ui/ErrorMessage';
import { FieldMessage, fieldMessageId } from '../ui/FieldMessage';
import { AMOUNT_PRESETS, checkAmountInput } from './amountPresets';
import { networkLabel, offerOn } from './offerOn';
import { type PurchasePhase, useOnrampPurchase } from './useOnrampPurchase';
import './addFunds.css';

export interface AddFundsProps {
  config: AppConfig;
  onramp: OnrampInfo;
  address: `0x${string}`;
  /** The network the wallet shows: the form opens on an offer that lands there, when there is one. */
  chainId: number;
  /** The asset to open on (its symbol), when an offer of it lands on `chainId` or elsewhere. */
  asset?: string;
  /** `buy`: by card; `send`: deposit from an exchange account. */
  experience: 'buy' | 'send';
  /** The funds arrived: the caller reloads what it shows. */
  onArrived(): void;
  onClose(): void;
}

/**
 * "Buy" (by card) and "Deposit from exchange": asset, network and amount (with presets), then the
 * provider's payment page in a popup (or a new tab), then the outcome and the new balance.
 */
export default function AddFunds({
  config,
  onramp,
  address,
  chainId,
  asset: wanted,
  experience,
  onArrived,
  onClose,
}: AddFundsProps) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const assets = useMemo(() => [...new Set(onramp.offers.map((offer) => offer.asset))], [onramp.offers]);
  const chains = useMemo(() => walletChains(config, window.location.origin), [config]);
  const [opening] = useState(() => {
    const asked = onramp.offers.find((offer) => offer.asset === wanted)?.asset;
    return offerOn(onramp.offers, chainId, asked);
  });
  const [asset, setAsset] = useState<OnrampAssetCode>(opening?.asset ?? assets[0] ?? 'USDC');
  const networks = onramp.offers.filter((offer) => offer.asset === asset);
  const [network, setNetwork] = useState(opening?.network ?? networks[0]?.network ?? '');
  const offer = networks.find((candidate) => candidate.network === network) ?? networks[0];
  const presets = AMOUNT_PRESETS[asset];
  const [amount, setAmount] = useState(presets[1] ?? presets[0] ?? '');
  const [amountError, setAmountError] = useState<string | null>(null);
  const { phase, start, reopen, reset } = useOnrampPurchase(config, address, onArrived);
  const buy = experience === 'buy';
  const title = buy ? 'Buy crypto' : 'Deposit from exchange';

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const chooseAsset = (next: OnrampAssetCode) => {
    setAsset(next);
    const first = offerOn(onramp.offers, chainId, next);
    setNetwork(first?.network ?? '');
    const nextPresets = AMOUNT_PRESETS[next];
    setAmount(nextPresets[1] ?? nextPresets[0] ?? '');
    setAmountError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = checkAmountInput(amount, asset);
    setAmountError(problem);
    if (problem !== null || offer === undefined) return;
    void start(offer, normalizeOnrampAmount(amount.trim()), experience);
  };

  const amountId = `${ids}-amount`;

  return (
    <section className="panel add-funds" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} ref={heading} tabIndex={-1} className="add-funds-title">
        {title}
      </h2>
      {onramp.provider === 'sandbox' && (
        <p className="add-funds-sandbox" role="note">
          Sandbox: credits test funds on the local chain.
        </p>
      )}

      {phase.status === 'idle' || phase.status === 'failed' ? (
        <form className="form" onSubmit={submit} noValidate>
          <div className="field">
            <label className="label" htmlFor={`${ids}-asset`}>
              Asset
            </label>
            <select
              id={`${ids}-asset`}
              className="input select"
              value={asset}
              onChange={(event) => chooseAsset(event.target.value as OnrampAssetCode)}
            >
              {assets.map((code) => (
                <option key={code} value={code}>
                  {code}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="label" htmlFor={`${ids}-network`}>
              Network
            </label>
            <select
              id={`${ids}-network`}
              className="input select"
              value={offer?.network ?? ''}
              onChange={(event) => setNetwork(event.target.value)}
            >
              {networks.map((candidate) => (
                <option key={candidate.network} value={candidate.network}>
                  {networkLabel(candidate, chains)}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="label" htmlFor={amountId}>
              Amount ({asset})
            </label>
            <input
              id={amountId}
              className="input"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              aria-invalid={amountError !== null}
              aria-describedby={fieldMessageId(amountId, amountError)}
              onChange={(event) => {
                setAmount(event.target.value);
                setAmountError(null);
              }}
            />
            <FieldMessage fieldId={amountId} error={amountError} hint={`How much ${asset} to add.`} />
          </div>
          <fieldset className="add-funds-presets">
            <legend className="label">Preset amounts</legend>
            {presets.map((preset) => (
              <button
                key={preset}
                type="button"
                className="button button-secondary"
                aria-pressed={amount === preset}
                onClick={() => {
                  setAmount(preset);
                  setAmountError(null);
                }}
              >
                {preset} {asset}
              </button>
            ))}
          </fieldset>
          {phase.status === 'failed' && <ErrorMessage error={phase.error} />}
          <div className="actions">
            <button type="submit" className="button button-primary">
              {buy ? 'Continue to payment' : 'Continue to deposit'}
            </button>
            <button type="button" className="button button-link" onClick={onClose}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <PurchaseProgress
          phase={phase}
          buy={buy}
          onDone={() => {
            reset();
            onClose();
          }}
          onStop={reset}
          onReopen={reopen}
        />
      )}
    </section>
  );
}

/** What happens after the form: waiting for the payment and the funds, then the outcome. */
function PurchaseProgress({
  phase,
  buy,
  onDone,
  onStop,
  onReopen,
}: {
  phase: Exclude<PurchasePhase, { status: 'idle' } | { status: 'failed' }>;
  buy: boolean;
  onDone(): void;
  onStop(): void;
  onReopen(): void;
}) {
  return (
    <div className="add-funds-progress">
      <p className="add-funds-status" role="status" aria-live="polite">
        {describePhase(phase, buy)}
      </p>
      {phase.status === 'waiting' && phase.blockedUrl !== null && (
        <p>
          Your browser blocked the payment window.{' '}
          <a href={phase.blockedUrl} target="_blank" rel="noreferrer" className="button button-primary">
            Open the payment page
          </a>
        </p>
      )}
      <div className="actions">
        {phase.status === 'starting' || phase.status === 'waiting' ? (
          <button type="button" className="button button-secondary" onClick={onStop}>
            Stop waiting
          </button>
        ) : phase.status === 'closed' ? (
          <>
            <button type="button" className="button button-primary" onClick={onReopen}>
              Open the {buy ? 'checkout' : 'deposit page'} again
            </button>
            <button type="button" className="button button-secondary" onClick={onDone}>
              Done
            </button>
          </>
        ) : (
          <button type="button" className="button button-primary" onClick={onDone}>
            Done
          </button>
        )}
      </div>
    </div>
  );
}

function describePhase(
  phase: Exclude<PurchasePhase, { status: 'idle' } | { status: 'failed' }>,
  buy: boolean,
) {
  switch (phase.status) {
    case 'starting':
      return 'Opening the payment page…';
    case 'waiting':
      if (phase.reader === null) {
        return 'Finish in the payment window. These funds go to an address this app cannot show: check it there.';
      }
      return phase.paid
        ? `Payment accepted. Waiting for the funds to arrive on ${phase.reader.chain.name}…`
        : `Finish ${buy ? 'the payment' : 'the deposit'} in the payment window. Waiting for the funds…`;
    case 'arrived':
      return `The funds arrived. Your balance on ${phase.reader.chain.name}: ${formatBalance(phase.balance, phase.reader)}.`;
    case 'timed-out':
      return 'The funds have not arrived yet. Payments can take a few minutes: check your balance again later.';
    case 'closed':
      return `The ${buy ? 'checkout' : 'deposit page'} was closed before it finished, so Dial stopped waiting for the funds.`;
  }
}
