import { combineWalletShares, DialError, decodeShare, isDialError } from '@dial/core';
import { getWallet } from '../api/endpoints';
import { getRecovery, reportRecoveryFailed } from '../api/shareEndpoints';
import { evaluatePasskey } from './passkey';
import { openWithPrf, protectWithPrf } from './passkeyKey';
import { openWithPassword, type ProgressListener, protectWithPassword } from './passwordKey';
import { type PasskeyKdf, type ProtectedRecoveryShare, randomSalt } from './recoveryCipher';
import { type PendingRotation, prepareRotation } from './rotateShares';

/** How the person unlocks the recovery share. */
export type RecoverySecret = { method: 'password'; password: string } | { method: 'passkey' };

export type RecoveryStage = 'fetching' | 'unlocking' | 'protecting';

/**
 * Recovers the wallet on this browser, up to the new split waiting for the server:
 * fetch the encrypted recovery share, decrypt it (a wrong password is reported to the server, which limits
 * tries), combine it with the auth share and check the address, then re-split the key: a new device share
 * (saved here first), a new auth share, and a new recovery share protected again with the same password or
 * passkey under a new salt. The caller sends the rotation ({@link commitRotation}).
 *
 * @throws {DialError} `wrong_recovery_password`, `too_many_requests` (with the wait), `recovery_not_set_up`,
 * `wallet_mismatch`, `user_rejected` (passkey cancelled), or an API error.
 */
export async function recoverToRotation(
  userId: string,
  secret: RecoverySecret,
  onStage: (stage: RecoveryStage, progress: number | null) => void,
): Promise<PendingRotation> {
  onStage('fetching', null);
  const wallet = await getWallet();
  const stored = await getRecovery();
  if (stored.generation !== wallet.generation) {
    throw new DialError('stale_share_generation', { details: 'recovery and auth share generations differ' });
  }

  const progress =
    (stage: RecoveryStage): ProgressListener =>
    (fraction) =>
      onStage(stage, fraction);
  let recoveryShare: Uint8Array;
  let protect: (share: Uint8Array) => Promise<ProtectedRecoveryShare>;
  if (secret.method === 'password') {
    if (stored.method !== 'password')
      throw new DialError('invalid_data', { details: 'recovery is a passkey' });
    onStage('unlocking', 0);
    recoveryShare = await unlockOrReport(() =>
      openWithPassword(stored, wallet.address, secret.password, progress('unlocking')),
    );
    protect = (share) => protectWithPassword(share, wallet.address, secret.password, progress('protecting'));
  } else {
    if (stored.kdf.name !== 'webauthn-prf')
      throw new DialError('invalid_data', { details: 'recovery is a password' });
    onStage('unlocking', null);
    const nextKdf: PasskeyKdf = { ...stored.kdf, salt: randomSalt(32) };
    // One prompt: the PRF of the current salt unlocks, the PRF of the new salt protects the next split.
    const outputs = await evaluatePasskey(stored.kdf, nextKdf.salt);
    recoveryShare = await unlockOrReport(
      () => openWithPrf(stored, wallet.address, outputs.current),
      'That passkey does not unlock your recovery key. Use the passkey you set up recovery with.',
    );
    const next = outputs.next;
    if (next === undefined) throw new DialError('internal_error', { details: 'no second PRF output' });
    protect = (share) => protectWithPrf(share, wallet.address, next, nextKdf);
  }

  const authShare = decodeShare(wallet.authShare);
  let privateKey: `0x${string}`;
  try {
    privateKey = await combineWalletShares([recoveryShare, authShare], wallet.address);
  } finally {
    recoveryShare.fill(0);
    authShare.fill(0);
  }
  onStage('protecting', secret.method === 'password' ? 0 : null);
  return prepareRotation(userId, wallet.address, wallet.generation, privateKey, protect);
}

/** Runs a decryption; on a wrong secret tells the server (it counts tries) and throws the right error. */
async function unlockOrReport(open: () => Promise<Uint8Array>, message?: string): Promise<Uint8Array> {
  try {
    return await open();
  } catch (error) {
    if (!isDialError(error, 'wrong_recovery_password')) throw error;
    try {
      await reportRecoveryFailed();
    } catch (reportError) {
      // A 429 here means this was the last try of the hour: say that, with the wait. Any other failure
      // to report does not change what the person needs to know: the password was wrong.
      if (isDialError(reportError, 'too_many_requests')) throw reportError;
    }
    throw message === undefined ? error : new DialError('wrong_recovery_password', { message, cause: error });
  }
}
