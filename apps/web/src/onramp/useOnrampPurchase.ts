import { DialError, MINUTE_MS } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppConfig, OnrampOffer } from '../api/types';
import { isOnrampReturnMessage } from './finishOnrampReturn';
import { type FundsReader, fundsReader } from './fundsReader';
import { startOnrampSession } from './startOnrampSession';

/** How long the app keeps checking the balance after opening the payment page. */
export const ARRIVAL_TIME_LIMIT_MS = 2 * MINUTE_MS;
const POLL_INTERVAL_MS = 2_000;
const POPUP_NAME = 'dial-onramp';
const POPUP_FEATURES = 'popup=yes,width=480,height=760';

export type PurchasePhase =
  | { status: 'idle' }
  | { status: 'starting' }
  /** The payment page is open (or, `blockedUrl`, must be opened by a click); `paid` once it said so. */
  | { status: 'waiting'; blockedUrl: string | null; paid: boolean; reader: FundsReader | null }
  | { status: 'arrived'; balance: bigint; reader: FundsReader }
  | { status: 'timed-out'; reader: FundsReader | null }
  /** The payment window was closed before it said it had paid: the wait stopped; it can be opened again. */
  | { status: 'closed'; reader: FundsReader | null }
  | { status: 'failed'; error: unknown };

/** What opening the payment page again needs. */
interface OpenCheckout {
  url: string;
  reader: FundsReader | null;
  /** The balance that means the funds arrived; null when it cannot be read. */
  expected: bigint | null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One purchase through the on-ramp: opens the payment window from the click (so no popup blocker stops it),
 * asks the server for the buy link, sends the window there (or offers a link to open it in a new tab when
 * popups are blocked), then reads the balance every 2 s until the funds arrive or {@link ARRIVAL_TIME_LIMIT_MS}
 * passes. The sandbox's window tells the app when it has paid (a same-origin message); closed before that,
 * the wait stops and `reopen` opens the same page again. (A provider's page on another origin cannot be
 * watched: this app's `Cross-Origin-Opener-Policy` cuts the window off from it, and it reads as closed, so
 * only the balance and the time limit end that wait.)
 */
export function useOnrampPurchase(config: AppConfig, address: `0x${string}`, onArrived: () => void) {
  const [phase, setPhase] = useState<PurchasePhase>({ status: 'idle' });
  const run = useRef(0);
  const popup = useRef<Window | null>(null);
  /** The payment window said it paid (in this run). */
  const paid = useRef(false);
  /** The page of the wait that stopped because its window was closed. */
  const closedCheckout = useRef<OpenCheckout | null>(null);

  useEffect(
    () => () => {
      run.current += 1;
    },
    [],
  );

  // The sandbox's window reports the outcome when it sends itself back to the app.
  useEffect(() => {
    const listener = (event: MessageEvent) => {
      if (!isOnrampReturnMessage(event, window.location.origin)) return;
      if (popup.current !== null && event.source !== popup.current) return;
      if (event.data.outcome === 'failed') {
        run.current += 1;
        setPhase({
          status: 'failed',
          error: new DialError('chain_unavailable', {
            message: 'The payment page could not send the funds, so nothing arrived. Try again.',
          }),
        });
        return;
      }
      paid.current = true;
      setPhase((current) => (current.status === 'waiting' ? { ...current, paid: true } : current));
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);

  /** Waits for the funds of run `id` (and, for a page of this origin, for its window to stay open). */
  const watch = useCallback(
    async (id: number, checkout: OpenCheckout, opened: Window | null) => {
      const { reader, expected } = checkout;
      const watchWindow =
        opened !== null && new URL(checkout.url, window.location.href).origin === window.location.origin;
      if ((reader === null || expected === null) && !watchWindow) return;
      const deadline = Date.now() + ARRIVAL_TIME_LIMIT_MS;
      while (Date.now() < deadline) {
        await sleep(POLL_INTERVAL_MS);
        if (id !== run.current) return;
        if (reader !== null && expected !== null) {
          const balance = await reader.read().catch(() => null);
          if (id !== run.current) return;
          if (balance !== null && balance >= expected) {
            setPhase({ status: 'arrived', balance, reader });
            onArrived();
            return;
          }
        }
        if (watchWindow && opened.closed && !paid.current) {
          // A window that paid posts its message just before it closes: give the message a moment.
          await sleep(500);
          if (id !== run.current) return;
          if (!paid.current) {
            closedCheckout.current = checkout;
            setPhase({ status: 'closed', reader });
            return;
          }
        }
      }
      setPhase({ status: 'timed-out', reader });
    },
    [onArrived],
  );

  const start = useCallback(
    async (offer: OnrampOffer, amount: string, experience: 'buy' | 'send') => {
      const id = ++run.current;
      paid.current = false;
      // Opened now, inside the click, then pointed at the buy page once the server gave the link.
      const opened = window.open('', POPUP_NAME, POPUP_FEATURES);
      popup.current = opened;
      setPhase({ status: 'starting' });
      const reader = fundsReader(config, offer, address);
      try {
        const before = reader === null ? null : await reader.read();
        const { url } = await startOnrampSession({
          asset: offer.asset,
          network: offer.network,
          amount,
          experience,
        });
        if (id !== run.current) return;
        const blocked = opened === null || opened.closed;
        if (!blocked) opened.location.replace(url);
        setPhase({ status: 'waiting', blockedUrl: blocked ? url : null, paid: false, reader });
        const expected = reader === null || before === null ? null : before + reader.units(amount);
        await watch(id, { url, reader, expected }, blocked ? null : opened);
      } catch (error) {
        if (id !== run.current) return;
        opened?.close();
        setPhase({ status: 'failed', error });
      }
    },
    [config, address, watch],
  );

  /** Opens the payment page of a wait stopped by closing its window again, and waits again. */
  const reopen = useCallback(() => {
    const checkout = closedCheckout.current;
    if (checkout === null) return;
    const id = ++run.current;
    paid.current = false;
    const opened = window.open(checkout.url, POPUP_NAME, POPUP_FEATURES);
    popup.current = opened;
    const blocked = opened === null || opened.closed;
    setPhase({
      status: 'waiting',
      blockedUrl: blocked ? checkout.url : null,
      paid: false,
      reader: checkout.reader,
    });
    void watch(id, checkout, blocked ? null : opened);
  }, [watch]);

  const reset = useCallback(() => {
    run.current += 1;
    if (popup.current !== null && !popup.current.closed) popup.current.close();
    popup.current = null;
    closedCheckout.current = null;
    setPhase({ status: 'idle' });
  }, []);

  return { phase, start, reopen, reset };
}
