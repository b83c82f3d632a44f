import { requestJson } from './client';
import type { AccountProof, OtpChannel, ProtectedRecoveryShare, WalletProof } from './types';

/** The new shares of a rotation: `PUT /api/wallet/shares`. */
export interface ShareRotation {
  expectedGeneration: number;
  address: string;
  /** Base64 of the new auth share. */
  authShare: string;
  recovery?: ProtectedRecoveryShare;
}

/** A rotation with the wallet key's proof over it, as sent. */
export interface SignedShareRotation extends ShareRotation {
  proof: WalletProof;
}

/** The encrypted recovery share (`GET /api/wallet/recovery`). */
export interface StoredRecovery extends ProtectedRecoveryShare {
  generation: number;
}

export interface ReauthStarted {
  ok: true;
  channel: OtpChannel;
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

export interface WalletExport {
  address: `0x${string}`;
  authShare: string;
  generation: number;
}

/**
 * Replaces the auth share (and recovery share) with those of a new split of the same key, if the server is
 * still at `expectedGeneration`; rejects with `stale_share_generation` or `reauthentication_required`.
 */
export function putShares(rotation: SignedShareRotation): Promise<{ address: string; generation: number }> {
  return requestJson('PUT', '/api/wallet/shares', { body: rotation });
}

/** The encrypted recovery share; rejects with `recovery_not_set_up` or `too_many_requests`. */
export function getRecovery(): Promise<StoredRecovery> {
  return requestJson<StoredRecovery>('GET', '/api/wallet/recovery');
}

/** Reports a recovery password that did not decrypt the share (it counts against the hourly limit). */
export async function reportRecoveryFailed(): Promise<void> {
  await requestJson<undefined>('POST', '/api/wallet/recovery/failed', { body: {} });
}

/** Sends a confirmation code to the signed-in user's own phone (or e-mail). */
export function startReauth(): Promise<ReauthStarted> {
  return requestJson<ReauthStarted>('POST', '/api/auth/reauth/start', { body: {} });
}

/** Checks the confirmation code; sensitive actions are then open to this session for 5 minutes. */
export function verifyReauth(code: string): Promise<{ reauthenticatedUntil: string }> {
  return requestJson('POST', '/api/auth/reauth/verify', { body: { code } });
}

/**
 * The auth share for showing the private key, with the key's proof (`export-key`); rejects with
 * `reauthentication_required` without a fresh code.
 */
export function getWalletExport(proof: AccountProof): Promise<WalletExport> {
  return requestJson<WalletExport>('POST', '/api/wallet/export', { body: { proof } });
}
