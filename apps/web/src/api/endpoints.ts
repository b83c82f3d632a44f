import type { WalletProofPurpose } from '@dial/core';
import { requestJson } from './client';
import type {
  AppConfig,
  FaucetAsset,
  FaucetSent,
  OtpChannel,
  OtpStarted,
  OtpVerified,
  StoredWallet,
  User,
  WalletProof,
} from './types';

/** The signed-in user; rejects with `unauthorized` when signed out. */
export async function getMe(signal?: AbortSignal): Promise<User> {
  const { user } = await requestJson<{ user: User }>('GET', '/api/me', { signal });
  return user;
}

export function getConfig(signal?: AbortSignal): Promise<AppConfig> {
  return requestJson<AppConfig>('GET', '/api/config', { signal });
}

/**
 * Sends a one-time code; `to` is an E.164 number or an e-mail address; `proof` is a solved proof of work, for
 * when the server asked for one (`proof_of_work_required`: see `startOtpWithProof`).
 */
export function startOtp(channel: OtpChannel, to: string, proof?: string): Promise<OtpStarted> {
  const body = proof === undefined ? { channel, to } : { channel, to, proof };
  return requestJson<OtpStarted>('POST', '/api/auth/otp/start', { body });
}

/** Checks a one-time code and, when it is right, starts a session. */
export function verifyOtp(channel: OtpChannel, to: string, code: string): Promise<OtpVerified> {
  return requestJson<OtpVerified>('POST', '/api/auth/otp/verify', { body: { channel, to, code } });
}

export async function logout(): Promise<void> {
  await requestJson<{ ok: true }>('POST', '/api/auth/logout', { body: {} });
}

/** The signed-in user's wallet; rejects with `wallet_not_found` when there is none yet. */
export function getWallet(): Promise<StoredWallet> {
  return requestJson<StoredWallet>('GET', '/api/wallet');
}

/**
 * Registers the wallet's address and auth share with the key's proof; rejects with
 * `embedded_wallet_already_exists`, `wallet_address_taken`, `wallet_proof_invalid` or `wallet_proof_expired`.
 */
export async function createWallet(address: string, authShare: string, proof: WalletProof): Promise<void> {
  await requestJson<{ address: string }>('POST', '/api/wallet', { body: { address, authShare, proof } });
}

/** A single-use challenge for the wallet's key to sign (valid five minutes, for this session only). */
export function getWalletChallenge(
  purpose: WalletProofPurpose,
): Promise<{ challenge: string; expiresAt: string }> {
  return requestJson('POST', '/api/wallet/challenge', { body: { purpose } });
}

/**
 * Development with the local chain only: 1 test ETH (`native`) or 100 test USDC (`usdc`) to the signed-in
 * user's wallet.
 */
export function requestTestFunds(asset: FaucetAsset): Promise<FaucetSent> {
  return requestJson<FaucetSent>('POST', '/api/dev/faucet', { body: { asset } });
}
