import { combineWalletShares, DialError, decodeShare, isDialError } from '@dial/core';
import type { Answer } from '../api/client';
import { getWallet } from '../api/endpoints';
import { getRecovery, reportRecoveryFailed } from '../api/shareEndpoints';
import type { PasskeyKdf, ProtectedRecoveryShare } from '../api/types';
import { evaluatePasskey } from './passkey';
import { openWithPrf, protectWithPrf } from './passkeyKey';
import { needsOprf, openWithPassword, type ProgressListener, protectWithPassword } from './passwordKey';
import { type EvaluateBlinded, evaluateOnServer, hardenPassword } from './passwordOprf';
import { randomSalt } from './recoveryCipher';
import { type PendingRotation, prepareRotation } from './rotateShares';

/** How the person unlocks the recovery share. */
export type RecoverySecret = { method: 'password'; password: string } | { method: 'passkey' };

export type RecoveryStage = 'fetching' | 'unlocking' | 'protecting';

/**
 * Recovers the wallet on this browser, up to the new split waiting for the server:
 * fetch the encrypted recovery share, decrypt it, combine it with the auth share and check the address,
 * then re-split the key: a new device share (saved here first), a new auth share, and a new recovery share
 * protected again with the same password or passkey under a new salt. The caller sends the rotation
 * ({@link commitRotation}).
 *
 * A password is hardened through the server's OPRF ({@link hardenPassword}); the server counts each
 * evaluation against the hourly recovery limit (and nothing else of a try: fetching the record is free), so a
 * wrong password costs one try and needs no separate report. A record
 * written before the OPRF opens with scrypt alone (a wrong password is then reported, as before), and the
 * new recovery share is always protected with the OPRF: old records are re-wrapped on their first use.
 *
 * @throws {DialError} `wrong_recovery_password` (saying the tries left before a wait, for a hardened record,
 * and after the last one the wait, in `retryAfterSeconds`),
 * `too_many_requests` (with the wait), `recovery_not_set_up`,
 * `wallet_mismatch`, `user_rejected` (passkey cancelled), or an API error.
 */
export async function recoverToRotation(
  userId: string,
  secret: RecoverySecret,
  onStage: (stage: RecoveryStage, progress: number | null) => void,
  evaluate: EvaluateBlinded = evaluateOnServer,
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
  // Wipes what protecting the next recovery share needed (the password's OPRF output).
  let wipe = () => {};
  if (secret.method === 'password') {
    if (stored.method !== 'password')
      throw new DialError('invalid_data', { details: 'recovery is a passkey' });
    const { password } = secret;
    onStage('unlocking', 0);
    const unlocked = await unlockWithPassword(
      stored,
      wallet.address,
      password,
      evaluate,
      progress('unlocking'),
    );
    recoveryShare = unlocked.share;
    const { oprfOutput } = unlocked;
    wipe = () => oprfOutput.fill(0);
    protect = (share) =>
      protectWithPassword(share, wallet.address, password, oprfOutput, progress('protecting'));
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
  try {
    let privateKey: `0x${string}`;
    try {
      privateKey = await combineWalletShares([recoveryShare, authShare], wallet.address);
    } finally {
      recoveryShare.fill(0);
      authShare.fill(0);
    }
    onStage('protecting', secret.method === 'password' ? 0 : null);
    return await prepareRotation(userId, wallet.address, wallet.generation, privateKey, protect);
  } finally {
    wipe();
  }
}

/**
 * Opens a password-protected recovery share and returns it with the password's OPRF output, which protects
 * the next one.
 *
 * A hardened record asks the server first (past the hour's tries that fails at once, before scrypt's
 * second or two), and a wrong password is not reported: the server counted the evaluation already. A record
 * written before the OPRF opens with scrypt alone, a wrong password is reported as before, and the OPRF
 * output is fetched only once it opened, for re-wrapping.
 */
async function unlockWithPassword(
  stored: Answer<'getRecovery'>,
  address: string,
  password: string,
  evaluate: EvaluateBlinded,
  onProgress: ProgressListener,
): Promise<{ share: Uint8Array; oprfOutput: Uint8Array }> {
  if (!needsOprf(stored.kdf)) {
    const share = await unlockOrReport(() => openWithPassword(stored, address, password, null, onProgress));
    try {
      return { share, oprfOutput: await hardenPassword(password, evaluate) };
    } catch (error) {
      share.fill(0);
      throw error;
    }
  }
  let tries: { left: number; retryAfterSeconds: number | undefined } | undefined;
  const oprfOutput = await hardenPassword(password, evaluate, (left, retryAfterSeconds) => {
    tries = { left, retryAfterSeconds };
  });
  try {
    return { share: await openWithPassword(stored, address, password, oprfOutput, onProgress), oprfOutput };
  } catch (error) {
    oprfOutput.fill(0);
    if (isDialError(error, 'wrong_recovery_password') && tries !== undefined) {
      const { left, retryAfterSeconds } = tries;
      throw new DialError('wrong_recovery_password', {
        message: wrongPasswordMessage(left),
        cause: error,
        // After the last try: when the next is allowed (the screen adds "You can try again in …").
        ...(left === 0 && retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      });
    }
    throw error;
  }
}

/**
 * "That recovery password is not right. 9 tries left …", from what the server says is left (`triesLeft` of
 * the OPRF answer): a try of a password is one evaluation, and nothing else of it is counted.
 */
export function wrongPasswordMessage(tries: number): string {
  const wrong = 'That recovery password is not right.';
  if (tries === 0) {
    return `${wrong} That was the last try for now: Dial makes you wait before the next one, to keep guessers out.`;
  }
  return `${wrong} ${tries} ${tries === 1 ? 'try' : 'tries'} left before Dial makes you wait.`;
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
