/** A listed transfer as a screen reader hears it: who/what, and its status line. */
export interface ListedStatus {
  id: string;
  /** "Sent 0.01 ETH, To *7654". */
  label: string;
  /** The status line, as shown ("Confirmed"). */
  text: string;
  /** Still in progress ("Pending"): not worth interrupting anyone for. */
  settling: boolean;
}

/**
 * What the list remembers of each transfer's status: the last settled one, or the first one seen while it
 * has never settled.
 */
export type StatusMemory = ReadonlyMap<string, string>;

/**
 * What to announce after the list changed, and what to remember for next time. A transfer is announced when
 * it was listed before and now settles on another status (pending → confirmed or failed). New transfers,
 * moves between in-progress states, and a status that ends where it was stay quiet, so a polite live region
 * speaks only of real news.
 */
export function statusChanges(
  memory: StatusMemory,
  current: readonly ListedStatus[],
): { messages: string[]; memory: StatusMemory } {
  const messages: string[] = [];
  const next = new Map(memory);
  for (const item of current) {
    const before = memory.get(item.id);
    if (before === undefined) {
      next.set(item.id, item.text);
      continue;
    }
    if (item.settling || before === item.text) continue;
    messages.push(`${item.label}: ${item.text}`);
    next.set(item.id, item.text);
  }
  return { messages, memory: next };
}
