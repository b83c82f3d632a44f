import { useEffect } from 'react';
import type { Chain } from 'viem';
import { ErrorMessage } from '../ui/ErrorMessage';
import { PanelHeading } from '../ui/PanelHeading';
import { ACTIVITY_CHANGED, type Transfer } from './activityApi';
import { describeTransfer } from './describeTransfer';
import { statusOf } from './transferStatus';
import { type ActivityState, useActivity } from './useActivity';
import { useStatusAnnouncements } from './useStatusAnnouncements';
import './activity.css';

interface ActivityPanelProps {
  chains: readonly Chain[];
  /**
   * Kept by the screen around the panel: how many transfers it shows, so that when it is shown again (after
   * the send screen) it loads as many.
   */
  shownCount?: { current: number };
}

/**
 * "Activity": the transfers sent and received, newest first, with "Show more" and a refresh. A refresh (the
 * button, or this browser recording a transfer) loads the list again as long as it was, and keeps it on
 * screen meanwhile; one polite live region tells screen readers when a listed transfer settles (pending →
 * confirmed or failed). Statuses are the server's, read on the chain; a received transfer appears once the
 * server has proven it.
 */
export function ActivityPanel(props: ActivityPanelProps) {
  const { state, reload, loadMore } = useActivity(props.shownCount);
  const items = state.status === 'ready' ? state.items : NO_ITEMS;
  const announcement = useStatusAnnouncements(items, props.chains);

  useEffect(() => {
    const refresh = () => void reload();
    window.addEventListener(ACTIVITY_CHANGED, refresh);
    return () => window.removeEventListener(ACTIVITY_CHANGED, refresh);
  }, [reload]);

  const refreshing = state.status === 'ready' && state.refreshing;
  return (
    <section className="panel activity" aria-labelledby="activity-title" aria-busy={refreshing}>
      <div className="activity-heading">
        <PanelHeading id="activity-title">Activity</PanelHeading>
        <button
          type="button"
          className="button button-link"
          aria-disabled={refreshing}
          onClick={() => {
            if (!refreshing) void reload();
          }}
        >
          Refresh activity
        </button>
      </div>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
      <ActivityList
        state={state}
        chains={props.chains}
        reload={() => void reload()}
        loadMore={() => void loadMore()}
      />
    </section>
  );
}

interface ActivityListProps {
  state: ActivityState;
  chains: readonly Chain[];
  reload(): void;
  loadMore(): void;
}

function ActivityList({ state, chains, reload, loadMore }: ActivityListProps) {
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
        <button type="button" className="button button-secondary" onClick={reload}>
          Try again
        </button>
      </>
    );
  }
  if (state.items.length === 0) return <p className="activity-empty">No activity yet</p>;

  return (
    <>
      <ul className="activity-list" aria-label="Transfers">
        {state.items.map((transfer) => (
          <ActivityItem key={transfer.id} transfer={transfer} chains={chains} />
        ))}
      </ul>
      {state.moreError !== null && <ErrorMessage error={state.moreError} />}
      {state.nextBefore !== null && (
        <button
          type="button"
          className="button button-secondary activity-more"
          aria-disabled={state.loadingMore || state.refreshing}
          onClick={loadMore}
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
}

function ActivityItem({ transfer, chains }: ActivityItemProps) {
  const view = describeTransfer(transfer, chains);
  const status = statusOf(transfer);
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
