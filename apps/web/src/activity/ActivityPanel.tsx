import { useEffect, useState } from 'react';
import type { Chain } from 'viem';
import { ErrorMessage } from '../ui/ErrorMessage';
import { ACTIVITY_CHANGED, type Transfer } from './activityApi';
import { describeTransfer } from './describeTransfer';
import { statusOf } from './transferStatus';
import { useActivity } from './useActivity';
import { useVerifications, type Verification } from './useVerifications';
import './activity.css';

interface ActivityPanelProps {
  address: `0x${string}`;
  chains: readonly Chain[];
  usdcOf(chainId: number): `0x${string}` | undefined;
}

/** "Activity": the transfers sent and received, newest first, with "Show more" and a refresh. */
export function ActivityPanel(props: ActivityPanelProps) {
  // A refresh starts over: the first page again, and received transfers checked again on their chains.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const reload = () => setGeneration((value) => value + 1);
    window.addEventListener(ACTIVITY_CHANGED, reload);
    return () => window.removeEventListener(ACTIVITY_CHANGED, reload);
  }, []);
  return (
    <section className="panel activity" aria-labelledby="activity-title">
      <div className="activity-heading">
        <h2 id="activity-title">Activity</h2>
        <button
          type="button"
          className="button button-link"
          onClick={() => setGeneration((value) => value + 1)}
        >
          Refresh activity
        </button>
      </div>
      <ActivityList key={generation} {...props} />
    </section>
  );
}

function ActivityList({ address, chains, usdcOf }: ActivityPanelProps) {
  const { state, reload, loadMore } = useActivity();
  const items = state.status === 'ready' ? state.items : NO_ITEMS;
  const verifications = useVerifications(items, { address, chains, usdcOf });

  if (state.status === 'loading') {
    return (
      <p className="hint" role="status">
        Loading activity…
      </p>
    );
  }
  if (state.status === 'failed') {
    return (
      <>
        <ErrorMessage error={state.error} />
        <button type="button" className="button button-secondary" onClick={() => void reload()}>
          Try again
        </button>
      </>
    );
  }
  if (items.length === 0) return <p className="activity-empty">No activity yet</p>;

  return (
    <>
      <ul className="activity-list" aria-label="Transfers">
        {items.map((transfer) => (
          <ActivityItem
            key={transfer.id}
            transfer={transfer}
            chains={chains}
            verification={verifications.get(transfer.id)}
          />
        ))}
      </ul>
      {state.moreError !== null && <ErrorMessage error={state.moreError} />}
      {state.nextBefore !== null && (
        <button
          type="button"
          className="button button-secondary activity-more"
          aria-disabled={state.loadingMore}
          onClick={() => void loadMore()}
        >
          {state.loadingMore ? 'Loading…' : 'Show more'}
        </button>
      )}
    </>
  );
}

const NO_ITEMS: Transfer[] = [];

interface ActivityItemProps {
  transfer: Transfer;
  chains: readonly Chain[];
  verification: Verification | undefined;
}

function ActivityItem({ transfer, chains, verification }: ActivityItemProps) {
  const view = describeTransfer(transfer, chains);
  const status = statusOf(transfer, verification);
  const time = new Date(transfer.createdAt);
  return (
    <li className={`activity-item activity-${transfer.direction}`}>
      <div className="activity-main">
        <span className="activity-direction">{view.direction}</span>
        <span className="activity-amount">
          {transfer.direction === 'sent' ? '−' : '+'}
          {view.amount}
        </span>
      </div>
      <div className="activity-meta">
        <span>{view.counterparty}</span>
        <span>{view.network}</span>
        <time dateTime={transfer.createdAt}>{formatTime(time)}</time>
      </div>
      <p className={`activity-status activity-status-${status.tone}`}>{status.text}</p>
    </li>
  );
}

function formatTime(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
