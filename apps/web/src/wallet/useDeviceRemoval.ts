import { useEffect, useRef } from 'react';
import { onDeviceRemoved } from '../keys/deviceRemoval';
import { unlockHeldDevice } from '../keys/rebuildKey';
import { onWalletChange } from '../live/walletChanges';

/** The least time between two checks made because the page came back into view. */
const VIEW_CHECK_INTERVAL_MS = 60_000;

/**
 * Notices when this browser was removed from the wallet on another device while this page was open (its
 * held share then opens nothing): when a rebuilding of the key found it removed (the signing reported it),
 * when the live stream says the wallet's keys changed, and when the page comes back into view (at most once
 * a minute), it unlocks this device again ({@link unlockHeldDevice}, which forgets a removed device), and
 * calls `onRemoved` once this browser is no longer a device, so the wallet screen opens the wallet again and
 * says why it cannot. A check that fails (offline) changes nothing: signing checks again anyway. Nothing is
 * checked unless `active` (the wallet is open). Another device's enrolment or a recovery change elsewhere
 * never affects this browser, so nothing else is checked.
 */
export function useDeviceRemoval(userId: string, active: boolean, onRemoved: () => void): void {
  const removed = useRef(onRemoved);
  removed.current = onRemoved;

  useEffect(() => {
    if (!active) return;
    let stopped = false;
    let running = false;
    let lastViewCheck = Date.now();
    const check = async () => {
      if (running) return;
      running = true;
      try {
        const unlocked = await unlockHeldDevice(userId).catch(() => null);
        if (unlocked?.status === 'unlocked') unlocked.device.heldShare.fill(0);
        else if (unlocked !== null && !stopped) removed.current();
      } finally {
        running = false;
      }
    };
    const onView = () => {
      if (document.visibilityState !== 'visible' || Date.now() - lastViewCheck < VIEW_CHECK_INTERVAL_MS)
        return;
      lastViewCheck = Date.now();
      void check();
    };
    window.addEventListener('focus', onView);
    document.addEventListener('visibilitychange', onView);
    const stopLive = onWalletChange((event) => {
      if (event.kind === 'keys') void check();
    });
    const stopReported = onDeviceRemoved(() => {
      if (!stopped) removed.current();
    });
    return () => {
      stopped = true;
      window.removeEventListener('focus', onView);
      document.removeEventListener('visibilitychange', onView);
      stopLive();
      stopReported();
    };
  }, [userId, active]);
}
