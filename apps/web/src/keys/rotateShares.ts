import { DialError, decodeShare, encodeShare, splitWalletKey } from '@dial/core';
import type { Hex } from 'viem';
import { putShares, type ShareRotation } from '../api/shareEndpoints';
import type { ProtectedRecoveryShare } from '../api/types';
import { keyFromDevice } from './rebuildKey';
import { signWalletProof } from './signWalletProof';
import { withWalletLock } from './walletLock';

/** A new recovery pair, its held share encrypted, waiting to be sent. */
export interface PendingRotation {
  userId: string;
  address: `0x${string}`;
  body: ShareRotation;
}

/**
 * Splits the wallet's key into a NEW recovery pair (setting up or changing recovery, or re-wrapping a record
 * written before the OPRF): its held share, the recovery share, is encrypted with `protect` and not kept
 * here; its auth share goes to the server with it. Only the recovery pair changes: every device (this one
 * included) keeps its own split, so no browser is locked out. Nothing changes on the server yet:
 * {@link commitRotation} sends it.
 *
 * The caller drops `privateKey` right after. What the pending rotation holds (the new auth share and the
 * encrypted recovery share) rebuilds nothing without the recovery password or passkey.
 */
export async function prepareRotation(
  userId: string,
  address: `0x${string}`,
  fromGeneration: number,
  privateKey: Hex,
  protect: (recoveryShare: Uint8Array) => Promise<ProtectedRecoveryShare>,
): Promise<PendingRotation> {
  const pair = await splitWalletKey(privateKey);
  try {
    if (pair.address.toLowerCase() !== address.toLowerCase()) {
      throw new DialError('wallet_mismatch', { details: 'the key is of another wallet' });
    }
    const recovery = await protect(pair.heldShare);
    return {
      userId,
      address,
      body: { expectedGeneration: fromGeneration, address, authShare: encodeShare(pair.authShare), recovery },
    };
  } finally {
    pair.heldShare.fill(0);
    pair.authShare.fill(0);
  }
}

/**
 * Sends a prepared rotation: the server replaces the recovery pair (its auth share and recovery share) in
 * one step if it is still at the generation the pair was made from. The key, rebuilt through this browser's
 * device just before, signs the change over a fresh server challenge (proof `rotate-shares`, no device:
 * proof of possession, so only the key replaces the pair), and is dropped. Runs under the wallet's Web Lock.
 *
 * - `reauthentication_required`: nothing changed; the same rotation can be sent again after the person
 *   confirmed with a code. Likewise `too_many_requests` and `wallet_proof_expired`.
 * - `stale_share_generation`: recovery was changed meanwhile (another device or tab): start again.
 *
 * @returns the recovery pair's new generation.
 * @throws {DialError} `device_removed`, `device_share_missing`, `wallet_mismatch` (this browser cannot
 * rebuild the key), or the server's refusal.
 */
export function commitRotation(pending: PendingRotation): Promise<number> {
  return withWalletLock(pending.userId, async () => {
    const { userId, address, body } = pending;
    const { wallet, privateKey } = await keyFromDevice(userId);
    if (wallet.address.toLowerCase() !== address.toLowerCase()) {
      throw new DialError('wallet_mismatch', { details: 'the device opens another wallet' });
    }
    const proof = await signWalletProof(privateKey, {
      purpose: 'rotate-shares',
      userId,
      address,
      fromGeneration: body.expectedGeneration,
      authShare: decodeShare(body.authShare),
      recovery: body.recovery ?? null,
      device: null,
    });
    const answer = await putShares({ ...body, proof });
    return answer.generation;
  });
}
