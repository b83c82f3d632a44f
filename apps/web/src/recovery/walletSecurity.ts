import { createContext, useContext } from 'react';
import type { StoredWallet } from '../api/types';

/**
 * What the wallet home's security parts (the recovery reminder and the Security panel) need from the
 * wallet screen: the recovery status, and the way to the recovery and export screens. A context, so the
 * wallet home only places them and needs no new props.
 */
export interface WalletSecurity {
  recovery: StoredWallet['recovery'];
  /** The person chose "Later" on the recovery reminder in the last few days (`reminderSnooze.ts`). */
  reminderDismissed: boolean;
  dismissReminder(): void;
  openRecoverySetup(): void;
  openExport(): void;
  /** A line to confirm what just happened ("Recovery is set up."), or empty. */
  notice: string;
}

export const WalletSecurityContext = createContext<WalletSecurity | null>(null);

/** The wallet screen's {@link WalletSecurity}, or null outside it (then the security parts show nothing). */
export function useWalletSecurity(): WalletSecurity | null {
  return useContext(WalletSecurityContext);
}

/** "password, set up on 23 November 2026" for the status line. */
export function describeRecovery(recovery: NonNullable<StoredWallet['recovery']>): string {
  const date = new Date(recovery.createdAt);
  const when = Number.isNaN(date.getTime())
    ? ''
    : `, set up on ${date.toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric' })}`;
  return `${recovery.method === 'passkey' ? 'passkey' : 'recovery password'}${when}`;
}
