import type { WalletProofPurpose } from '@dial/core';
import { type Answer, type Body, callApi } from './client';
import type { AppConfig, FaucetAsset, OtpChannel, User } from './types';

/** The signed-in user; rejects with `unauthorized` when signed out. */
export async function getMe(signal?: AbortSignal): Promise<User> {
  const { user } = await callApi('me', { signal });
  return user;
}

export function getConfig(signal?: AbortSignal): Promise<AppConfig> {
  return callApi('config', { signal });
}

/**
 * Sends a one-time code; `to` is an E.164 number or an e-mail address; `proof` is a solved proof of work, for
 * when the server asked for one (`proof_of_work_required`: see `startOtpWithProof`).
 */
export function startOtp(channel: OtpChannel, to: string, proof?: string): Promise<Answer<'otpStart'>> {
  const body: Body<'otpStart'> = proof === undefined ? { channel, to } : { channel, to, proof };
  return callApi('otpStart', { body });
}

/** Checks a one-time code and, when it is right, starts a session. */
export function verifyOtp(channel: OtpChannel, to: string, code: string): Promise<Answer<'otpVerify'>> {
  return callApi('otpVerify', { body: { channel, to, code } });
}

export async function logout(): Promise<void> {
  await callApi('logout');
}

/** The signed-in user's wallet; rejects with `wallet_not_found` when there is none yet. */
export function getWallet(): Promise<Answer<'getWallet'>> {
  return callApi('getWallet');
}

/**
 * Registers the wallet: its address, the recovery pair's auth share and this browser as its first device,
 * with the key's proof; answers the device the server made. Rejects with `embedded_wallet_already_exists`,
 * `wallet_address_taken`, `wallet_proof_invalid` or `wallet_proof_expired`.
 */
export function createWallet(body: Body<'registerWallet'>): Promise<Answer<'registerWallet'>> {
  return callApi('registerWallet', { body });
}

/** A single-use challenge for the wallet's key to sign (valid five minutes, for this session only). */
export function getWalletChallenge(purpose: WalletProofPurpose): Promise<Answer<'walletChallenge'>> {
  return callApi('walletChallenge', { body: { purpose } });
}

/**
 * Development with the local chain only: 1 test ETH (`native`) or 100 test USDC (`usdc`) to the signed-in
 * user's wallet.
 */
export function requestTestFunds(asset: FaucetAsset): Promise<Answer<'faucet'>> {
  return callApi('faucet', { body: { asset } });
}
