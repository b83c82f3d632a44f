import { DAY_MS } from '@dial/core';

/** "Later" on the recovery reminder hides it for this long; then it comes back until recovery is set up. */
export const REMINDER_SNOOZE_DAYS = 3;

const KEY = 'dial.recoveryLater.';

/**
 * Whether the reminder is still hidden by a "Later" pressed at `laterAt` (ms since the epoch; null: never):
 * for {@link REMINDER_SNOOZE_DAYS} days after it. A time ahead of the clock (a clock set back) hides nothing,
 * so a wrong clock cannot hide the reminder for good.
 */
export function isReminderSnoozed(laterAt: number | null, now: number): boolean {
  if (laterAt === null || laterAt > now) return false;
  return now - laterAt < REMINDER_SNOOZE_DAYS * DAY_MS;
}

/**
 * When this person last pressed "Later" in this browser (kept in localStorage by user id, so another account
 * signed in here is reminded anyway), or null.
 */
export function readReminderLater(userId: string): number | null {
  try {
    const value = Number(localStorage.getItem(KEY + userId) ?? Number.NaN);
    return Number.isFinite(value) ? value : null;
  } catch {
    return null;
  }
}

/** Remembers "Later", pressed at `now`, across reloads. */
export function saveReminderLater(userId: string, now: number): void {
  try {
    localStorage.setItem(KEY + userId, String(now));
  } catch {
    // Storage refused: "Later" lasts until the wallet is opened again.
  }
}
