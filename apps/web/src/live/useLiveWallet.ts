import { MINUTE_MS } from '@dial/core';
import { useEffect, useRef } from 'react';
import { type Chain, formatUnits } from 'viem';
import { callApi, openEventStream } from '../api/client';
import type { WalletEvent } from '../api/types';
import { checkBalances, notifyWalletChange, onWalletChange } from './walletChanges';
import './live.css';

/** How often the balances are read again while the page is visible (money from outside Dial). */
const BALANCE_POLL_MS = 12_000;
/** The longest wait before opening the stream again after it failed. */
const MAX_RETRY_MS = MINUTE_MS;
/** How long an announcement stays on screen. */
const ANNOUNCEMENT_MS = 10_000;

/**
 * Keeps the wallet live while it is shown and the page is visible: the server's stream of wallet events
 * (`walletEvents`) tells every listener of {@link onWalletChange}; the balances are read again on a change,
 * when the page comes back, on focus and every few seconds; money received is announced politely ("Received
 * 0.005 ETH on Local"). Hidden, the page holds no connection; visible again, it reopens the stream and
 * reloads once (events may have been missed).
 *
 * @param chains - The networks the wallet offers, to name the one money arrived on.
 */
export function useLiveWallet(chains: readonly Chain[]): void {
  const chainsRef = useRef(chains);
  chainsRef.current = chains;
  useEffect(() => startLiveWallet(() => chainsRef.current), []);
}

function startLiveWallet(chains: () => readonly Chain[]): () => void {
  let source: EventSource | null = null;
  let lastId: string | null = null;
  let failures = 0;
  let sessionEnded = false;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;
  let clearTimer: ReturnType<typeof setTimeout> | undefined;
  const announced = new Set<string>();

  // One polite live region for the page's lifetime: a region added with its text is often not read.
  const region = document.createElement('div');
  region.className = 'live-announcement';
  region.setAttribute('role', 'status');
  region.setAttribute('aria-live', 'polite');
  document.body.append(region);

  const visible = () => document.visibilityState === 'visible';

  const close = () => {
    source?.close();
    source = null;
    clearTimeout(retryTimer);
  };

  const open = () => {
    if (source !== null || sessionEnded || !visible()) return;
    const events = openEventStream('walletEvents', { query: { after: lastId ?? undefined } });
    source = events;
    events.onopen = () => {
      failures = 0;
    };
    events.onmessage = (message: MessageEvent<string>) => {
      if (message.lastEventId !== '') lastId = message.lastEventId;
      let event: WalletEvent;
      try {
        event = JSON.parse(message.data) as WalletEvent;
      } catch {
        return;
      }
      notifyWalletChange(event);
    };
    events.addEventListener('reset', (message) => {
      const id = (message as MessageEvent<string>).lastEventId;
      if (id !== '') lastId = id;
      notifyWalletChange({ kind: 'reload' });
    });
    // The session is over: nothing to reconnect to (the next request of the page finds out).
    events.addEventListener('end', () => {
      sessionEnded = true;
      close();
    });
    events.onerror = () => {
      // While CONNECTING the browser reconnects by itself (resuming with Last-Event-ID); CLOSED is an answer
      // that was no stream (an error status): try again later, waiting longer each time.
      if (events.readyState !== EventSource.CLOSED) return;
      close();
      failures += 1;
      retryTimer = setTimeout(open, Math.min(1_000 * 2 ** failures, MAX_RETRY_MS));
    };
  };

  const announce = async (event: Extract<WalletEvent, { kind: 'activity' }>) => {
    if (announced.has(event.entryId)) return;
    const page = await callApi('listActivity', { query: { limit: 20 } });
    const entry = page.items.find((item) => item.id === event.entryId);
    if (entry === undefined || entry.direction !== 'received' || announced.has(entry.id)) return;
    // A pending entry is announced when it settles; a failed one brought nothing.
    if (entry.status === 'pending' || entry.status === 'failed') return;
    announced.add(entry.id);
    const chain = chains().find((candidate) => candidate.id === entry.chainId);
    const units =
      entry.asset === 'usdc'
        ? { decimals: 6, symbol: 'USDC' }
        : (chain?.nativeCurrency ?? { decimals: 18, symbol: 'ETH' });
    region.textContent = `Received ${formatUnits(BigInt(entry.amount), units.decimals)} ${units.symbol} on ${
      chain?.name ?? `chain ${entry.chainId}`
    }`;
    clearTimeout(clearTimer);
    clearTimer = setTimeout(() => {
      region.textContent = '';
    }, ANNOUNCEMENT_MS);
  };

  const stopListening = onWalletChange((change) => {
    // Key splits and account changes move no money: their own screens listen for them.
    if (change.kind === 'keys' || change.kind === 'account') return;
    checkBalances();
    if (change.kind === 'activity' && change.direction === 'received') {
      announce(change).catch(() => {
        // The balance shows it anyway; the announcement is not worth an error.
      });
    }
  });

  const startPolling = () => {
    clearInterval(pollTimer);
    pollTimer = setInterval(checkBalances, BALANCE_POLL_MS);
  };
  const onVisibility = () => {
    if (visible()) {
      open();
      startPolling();
      notifyWalletChange({ kind: 'reload' });
    } else {
      close();
      clearInterval(pollTimer);
    }
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('focus', checkBalances);
  if (visible()) {
    open();
    startPolling();
  }

  return () => {
    close();
    clearInterval(pollTimer);
    clearTimeout(clearTimer);
    stopListening();
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('focus', checkBalances);
    region.remove();
  };
}
