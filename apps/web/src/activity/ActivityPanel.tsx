import { useEffect, useId, useRef, useState } from 'react';
import type { Chain } from 'viem';
import { ErrorMessage } from '../ui/ErrorMessage';
import { PanelHeading } from '../ui/PanelHeading';
import { useCopyText } from '../ui/useCopyText';
import { ACTIVITY_CHANGED, type ActivityEntry } from './activityApi';
import { describeEntry, explorerLink } from './describeEntry';
import { statusOf } from './transferStatus';
import { type ActivityState, useActivity } from './useActivity';
import { useStatusAnnouncements } from './useStatusAnnouncements';
import './activity.css';

interface ActivityPanelProps {
  chains: readonly Chain[];
  /**
   * Kept by the screen around the panel: how many entries it shows, so that when it is shown again (after
   * the send screen) it loads as many.
   */
  shownCount?: { current: number };
}

/**
 * "Activity": the whole history, newest first: Dial transfers sent and received, test funds, on-ramp
 * purchases, money from any address and balance changes, each with its status, its hash to copy and a link
 * to the chain's explorer; on every network or one; with "Show more" and a refresh. It loads again when this
 * browser records a transfer and when the live stream says the activity changed, keeping the list on screen
 * meanwhile; one polite live region tells screen readers when a listed entry settles. Statuses are the
 * server's, read on the chain.
 */
export function ActivityPanel(props: ActivityPanelProps) {
  const [chainId, setChainId] = useState<number | null>(null);
  const filterId = useId();
  const own = useRef(0);
  const shown = props.shownCount ?? own;
  const { state, reload, loadMore } = useActivity(shown, chainId);
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
      <div className="activity-filter">
        {/* Not wrapping the select: its name would take in the chosen option ("All networks"). */}
        <label htmlFor={filterId}>Show activity on</label>
        <select
          id={filterId}
          value={chainId ?? ''}
          onChange={(event) => {
            // Another list: it starts again at its first page.
            shown.current = 0;
            setChainId(event.target.value === '' ? null : Number(event.target.value));
          }}
        >
          <option value="">All networks</option>
          {props.chains.map((chain) => (
            <option key={chain.id} value={chain.id}>
              {chain.name}
            </option>
          ))}
        </select>
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
        {state.items.map((entry) => (
          <ActivityItem key={entry.id} entry={entry} chains={chains} />
        ))}
      </ul>
      {state.moreError !== null && <ErrorMessage error={state.moreError} />}
      {state.nextCursor !== null && (
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

const NO_ITEMS: ActivityEntry[] = [];

interface ActivityItemProps {
  entry: ActivityEntry;
  chains: readonly Chain[];
}

function ActivityItem({ entry, chains }: ActivityItemProps) {
  const view = describeEntry(entry, chains);
  const status = statusOf(entry);
  const time = new Date(entry.createdAt);
  return (
    <li className={`activity-item activity-${entry.direction}`}>
      <div className="activity-main">
        <span className="activity-direction">{view.direction}</span>
        <span className="activity-amount">
          {entry.direction === 'sent' ? '−' : '+'}
          {view.amount}
        </span>
      </div>
      <div className="activity-meta">
        {view.counterparty !== '' && <span>{view.counterparty}</span>}
        <span>{view.network}</span>
        <time dateTime={entry.createdAt}>{formatTime(time)}</time>
      </div>
      <p className={`activity-status activity-status-${status.tone}`}>{status.text}</p>
      {entry.txHash !== null && (
        <TransactionHash hash={entry.txHash} chain={chains.find((chain) => chain.id === entry.chainId)} />
      )}
    </li>
  );
}

/** The hash, shortened, with a Copy button and, where the chain has an explorer, a link to it. */
function TransactionHash({ hash, chain }: { hash: `0x${string}`; chain: Chain | undefined }) {
  const hashRef = useRef<HTMLElement>(null);
  const { copy, feedback } = useCopyText(hash, hashRef, 'hash');
  const link = chain === undefined ? undefined : explorerLink(chain, hash);
  return (
    <div className="activity-hash">
      {/* The whole hash, cut short by CSS only: selecting it by hand (where copying fails) takes all of it. */}
      <code ref={hashRef} title={hash}>
        {hash}
      </code>
      <button type="button" className="button button-link" onClick={() => void copy()}>
        Copy hash
      </button>
      {link !== undefined && (
        <a href={link.url} target="_blank" rel="noreferrer noopener">
          View on {link.name}
        </a>
      )}
      {/* Polite but not a status role: the list keeps one status region, for settled entries. */}
      <span aria-live="polite">{feedback}</span>
    </div>
  );
}

function formatTime(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
