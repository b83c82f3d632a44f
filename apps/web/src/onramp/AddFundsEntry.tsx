import { lazy, Suspense, useState } from 'react';
import type { AppConfig } from '../api/types';
import { LoadFailureBoundary } from '../ui/LoadFailureBoundary';
import { PanelHeading } from '../ui/PanelHeading';
import './addFunds.css';

const AddFunds = lazy(() => import('./AddFunds'));

export interface AddFundsEntryProps {
  config: AppConfig;
  address: `0x${string}`;
  /** The network the wallet shows: the panel opens on an offer that lands there, when there is one. */
  chainId: number;
  /** The funds of a purchase arrived: reload the balances shown. */
  onFunded(): void;
  /** A sentence before the buttons, e.g. why funds are needed. */
  lead?: string;
  /**
   * The asset the panel opens on (its symbol, e.g. the `ETH` a network fee needs), when the server offers it
   * on a network; else the first offer on `chainId`.
   */
  asset?: string;
}

/**
 * "Add funds": Buy (by card) and Deposit from exchange, each opening its panel (loaded on first use). Renders
 * nothing when the server offers no on-ramp.
 */
export function AddFundsEntry({ config, address, chainId, onFunded, lead, asset }: AddFundsEntryProps) {
  const [open, setOpen] = useState<'buy' | 'send' | null>(null);
  const onramp = config.onramp ?? null;
  if (onramp === null || onramp.offers.length === 0) return null;

  if (open !== null) {
    return (
      <LoadFailureBoundary>
        <Suspense fallback={<p role="status">Loading…</p>}>
          <AddFunds
            config={config}
            onramp={onramp}
            address={address}
            chainId={chainId}
            experience={open}
            {...(asset !== undefined ? { asset } : {})}
            onArrived={onFunded}
            onClose={() => setOpen(null)}
          />
        </Suspense>
      </LoadFailureBoundary>
    );
  }
  return (
    <section className="panel add-funds-entry" aria-label="Add funds">
      <PanelHeading id="add-funds-title">Add funds</PanelHeading>
      {lead !== undefined && <p className="hint">{lead}</p>}
      <div className="actions">
        <button type="button" className="button button-primary" onClick={() => setOpen('buy')}>
          Buy
        </button>
        <button type="button" className="button button-secondary" onClick={() => setOpen('send')}>
          Deposit from exchange
        </button>
      </div>
    </section>
  );
}

/**
 * Offered when a send fails with `insufficient_balance`: the same Buy / Deposit entry, saying why (the
 * caller's `lead`, else a general sentence), opened on the asset that is short. The send screen shows it
 * under its error.
 */
export function AddFundsOffer(props: AddFundsEntryProps) {
  return <AddFundsEntry lead="Not enough funds for this. Add some, then try again." {...props} />;
}
