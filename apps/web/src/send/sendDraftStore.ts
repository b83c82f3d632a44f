import type { SendDraft } from './useSendForm';

/**
 * The send form kept across a reload of the tab: who to pay, what, how much and on which network. Never a
 * key or a code. In sessionStorage (this tab only, gone when it closes), for the user who typed it, and
 * cleared when the send is made or cancelled and on sign-out.
 */
export interface SavedSendDraft {
  draft: SendDraft;
  chainId: number;
}

const KEY = 'dial.send-draft';

/** Keeps `draft` (on `chainId`) for `userId`. Does nothing where the storage is refused (private modes). */
export function saveSendDraft(userId: string, saved: SavedSendDraft, storage = sessionStorageOrNull()): void {
  try {
    storage?.setItem(KEY, JSON.stringify({ userId, ...saved }));
  } catch {
    // Full or refused: the draft is simply not kept across a reload.
  }
}

/** The draft kept for `userId`, or null (none, another user's, or not one this app wrote). */
export function readSendDraft(userId: string, storage = sessionStorageOrNull()): SavedSendDraft | null {
  let value: unknown;
  try {
    value = JSON.parse(storage?.getItem(KEY) ?? 'null');
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const stored = value as Record<string, unknown>;
  const draft = stored.draft as Record<string, unknown> | null | undefined;
  if (stored.userId !== userId || typeof stored.chainId !== 'number' || typeof draft !== 'object' || !draft) {
    return null;
  }
  const texts = ['countryCode', 'phone', 'address', 'amount'] as const;
  if (!texts.every((field) => typeof draft[field] === 'string')) return null;
  if (draft.mode !== 'phone' && draft.mode !== 'address') return null;
  if (draft.asset !== 'native' && draft.asset !== 'usdc') return null;
  return {
    chainId: stored.chainId,
    draft: {
      mode: draft.mode,
      countryCode: draft.countryCode as string,
      phone: draft.phone as string,
      address: draft.address as string,
      asset: draft.asset,
      amount: draft.amount as string,
    },
  };
}

/** Forgets the kept draft. */
export function clearSendDraft(storage = sessionStorageOrNull()): void {
  try {
    storage?.removeItem(KEY);
  } catch {
    // Refused: nothing was kept either.
  }
}

function sessionStorageOrNull(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Reading sessionStorage throws where the browser blocks storage for the site.
    return null;
  }
}
