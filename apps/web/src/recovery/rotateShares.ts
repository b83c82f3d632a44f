import { createWalletShares, encodeShare, isDialError } from '@dial/core';
import type { Hex } from 'viem';
import { putShares, type ShareRotation } from '../api/shareEndpoints';
import { deviceShareStore } from '../wallet/deviceShareStore';
import type { ProtectedRecoveryShare } from './recoveryCipher';

/** A new split whose device share is saved in this browser, waiting for the server to take the others. */
export interface PendingRotation {
  userId: string;
  address: `0x${string}`;
  /** The generation the new split becomes once the server takes it. */
  generation: number;
  body: ShareRotation;
}

/**
 * Splits the wallet's key into three NEW shares (generation + 1): saves the new device share in this
 * browser first, beside the current one, and encrypts the new recovery share with `protect`. Nothing
 * changes on the server yet: {@link commitRotation} sends the rest.
 *
 * The caller drops `privateKey` right after. What the pending rotation holds (one share for the server,
 * one encrypted) cannot rebuild the key without the device share, which page scripts can read anyway.
 */
export async function prepareRotation(
  userId: string,
  address: `0x${string}`,
  fromGeneration: number,
  privateKey: Hex,
  protect: (recoveryShare: Uint8Array) => Promise<ProtectedRecoveryShare>,
): Promise<PendingRotation> {
  const shares = await createWalletShares(privateKey);
  const generation = fromGeneration + 1;
  try {
    const recovery = await protect(shares.recoveryShare);
    // Saved BEFORE the server hears of this split: if the answer is lost after the server took it, the
    // next opening finds the share of the server's new generation here.
    await deviceShareStore.save(userId, address, shares.deviceShare, generation);
    return {
      userId,
      address,
      generation,
      body: {
        expectedGeneration: fromGeneration,
        address,
        authShare: encodeShare(shares.authShare),
        recovery,
      },
    };
  } finally {
    shares.deviceShare.fill(0);
    shares.authShare.fill(0);
    shares.recoveryShare.fill(0);
  }
}

/**
 * Sends a prepared rotation: the server replaces the auth and recovery shares in one step if it is still
 * at the generation the split was made from. Then only the new device share is kept.
 *
 * - `reauthentication_required`: nothing changed; the new device share stays so the same rotation can be
 *   sent again after the person confirmed with a code.
 * - `stale_share_generation` (another device rotated first) and other refusals: the new share is
 *   forgotten, the current one stays.
 * - No answer (network): both shares stay, since the server may have taken it; the next opening uses
 *   whichever the server holds.
 *
 * @returns the new generation.
 */
export async function commitRotation(pending: PendingRotation): Promise<number> {
  const { userId, address, generation } = pending;
  let answer: { generation: number };
  try {
    answer = await putShares(pending.body);
  } catch (error) {
    const refused =
      isDialError(error) &&
      error.status < 500 &&
      error.code !== 'reauthentication_required' &&
      error.code !== 'network_error';
    if (refused) await deviceShareStore.discard(userId, address, generation);
    throw error;
  }
  await deviceShareStore.keepOnly(userId, address, answer.generation);
  return answer.generation;
}
