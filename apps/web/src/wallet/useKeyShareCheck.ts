import { useEffect, useRef } from 'react';
import { holdsCurrentShare, onKeysChanged } from '../keys/keyShareCheck';
import { onWalletChange } from '../live/walletChanges';

/**
 * Notices when the wallet's keys were replaced on another device while this page was open: checks that this
 * browser still holds a device share of the server's split ({@link holdsCurrentShare}) when the page comes
 * back into view (focus, visibility), when the live stream says the keys changed, when a signing found no
 * share, and whenever `signingScreen` is true (the send confirmation, export, recovery setup: before anything
 * is signed). Calls `onChanged` once a check says the share here is no longer current. A check that fails
 * (offline) changes nothing: signing checks again anyway. Nothing is checked unless `active` (the wallet is
 * open).
 */
export function useKeyShareCheck(
  userId: string,
  { active, signingScreen }: { active: boolean; signingScreen: boolean },
  onChanged: () => void,
): void {
  const changed = useRef(onChanged);
  changed.current = onChanged;
  const check = useRef<() => void>(() => {});

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let running = false;
    let again = false;
    const run = async () => {
      if (running) {
        // Another reason to look came in while a check ran: look once more afterwards.
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const current = await holdsCurrentShare(userId).catch(() => true);
          if (!current && !stopped) {
            changed.current();
            return;
          }
        } while (again && !stopped);
      } finally {
        running = false;
      }
    };
    check.current = () => void run();
    const onFocus = () => void run();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void run();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    const stopLive = onWalletChange((event) => {
      if (event.kind === 'keys') void run();
    });
    const stopSigning = onKeysChanged(() => void run());
    return () => {
      stopped = true;
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
      stopLive();
      stopSigning();
      check.current = () => {};
    };
  }, [userId, active]);

  useEffect(() => {
    if (active && signingScreen) check.current();
  }, [active, signingScreen]);
}
