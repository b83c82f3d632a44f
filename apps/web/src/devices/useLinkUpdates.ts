import { useEffect, useRef } from 'react';
import { type DeviceLink, getDeviceLink } from './devicesApi';

/** How often a browser waiting on a link asks where it stands. */
export const LINK_POLL_MS = 1_500;

/** Whether a link will change no more. */
export function isLinkSettled(link: DeviceLink): boolean {
  return link.state === 'cancelled' || link.state === 'expired';
}

/**
 * Reads link `id` every {@link LINK_POLL_MS} while `active` and hands each answer to `onUpdate` (a failed read
 * to `onError`, and reading goes on: a phone that lost the network a moment catches up). Stops when the
 * component goes, `active` turns false, or the link settles (cancelled, expired).
 */
export function useLinkUpdates(
  id: string | null,
  active: boolean,
  onUpdate: (link: DeviceLink) => void,
  onError: (error: unknown) => void,
): void {
  const handlers = useRef({ onUpdate, onError });
  handlers.current = { onUpdate, onError };

  useEffect(() => {
    if (id === null || !active) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = async () => {
      try {
        const link = await getDeviceLink(id, controller.signal);
        if (controller.signal.aborted) return;
        handlers.current.onUpdate(link);
        if (isLinkSettled(link)) return;
      } catch (error) {
        if (controller.signal.aborted) return;
        handlers.current.onError(error);
      }
      timer = setTimeout(read, LINK_POLL_MS);
    };
    timer = setTimeout(read, LINK_POLL_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [id, active]);
}
