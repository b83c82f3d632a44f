import { DialError } from '@dial/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AppConfig, OnrampOffer } from '../api/types';
import { isOnrampReturnMessage } from './finishOnrampReturn';
import { type FundsReader, fundsReader } from './fundsReader';
import { startOnrampSession } from './startOnrampSession';

/** How long the app keeps checking the balance after opening the payment page. */
export const ARRIVAL_TIME_LIMIT_MS = 2 * 60_000;
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
  | { status: 'failed'; error: unknown };

/**
 * One purchase through the on-ramp: opens the payment window from the click (so no popup blocker stops it),
 * asks the server for the buy link, sends the window there (or offers a link to open it in a new tab when
 * popups are blocked), then reads the balance every 2 s until the funds arrive or {@link ARRIVAL_TIME_LIMIT_MS}
 * passes. The sandbox's window tells the app when it has paid (a same-origin message).
 */
export function useOnrampPurchase(config: AppConfig, address: `0x${string}`, onArrived: () => void) {
  const [phase, setPhase] = useState<PurchasePhase>({ status: 'idle' });
  const run = useRef(0);
  const popup = useRef<Window | null>(null);

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
      setPhase((current) => (current.status === 'waiting' ? { ...current, paid: true } : current));
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);

  const start = useCallback(
    async (offer: OnrampOffer, amount: string, experience: 'buy' | 'send') => {
      const id = ++run.current;
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
        if (reader === null || before === null) return;
        const expected = before + reader.units(amount);
        const deadline = Date.now() + ARRIVAL_TIME_LIMIT_MS;
        while (Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
          if (id !== run.current) return;
          const balance = await reader.read().catch(() => null);
          if (id !== run.current) return;
          if (balance !== null && balance >= expected) {
            setPhase({ status: 'arrived', balance, reader });
            onArrived();
            return;
          }
        }
        setPhase({ status: 'timed-out', reader });
      } catch (error) {
        if (id !== run.current) return;
        opened?.close();
        setPhase({ status: 'failed', error });
      }
    },
    [config, address, onArrived],
  );

  const reset = useCallback(() => {
    run.current += 1;
    if (popup.current !== null && !popup.current.closed) popup.current.close();
    popup.current = null;
    setPhase({ status: 'idle' });
  }, []);

  return { phase, start, reset };
}
