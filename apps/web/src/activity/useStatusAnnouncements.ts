import { useEffect, useRef, useState } from 'react';
import type { Chain } from 'viem';
import type { ActivityEntry } from './activityApi';
import { describeEntry } from './describeEntry';
import { type StatusMemory, statusChanges } from './statusChanges';
import { statusOf } from './transferStatus';

/**
 * The text for the activity list's one polite live region: which listed transfers just settled on another
 * status (see {@link statusChanges}). Remembers statuses across refreshes, since the list stays mounted.
 */
export function useStatusAnnouncements(items: readonly ActivityEntry[], chains: readonly Chain[]): string {
  const memory = useRef<StatusMemory>(new Map());
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const listed = items.map((transfer) => {
      const view = describeEntry(transfer, chains);
      const status = statusOf(transfer);
      return {
        id: transfer.id,
        label: `${view.direction} ${view.amount}, ${view.counterparty}`,
        text: status.text,
        settling: status.tone === 'pending',
      };
    });
    const { messages, memory: next } = statusChanges(memory.current, listed);
    memory.current = next;
    if (messages.length > 0) setAnnouncement(messages.join('. '));
  }, [items, chains]);

  return announcement;
}
