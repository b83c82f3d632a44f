import { combineWalletShares, DialError, decodeShare, isDialError } from '@dial/core';
import type { Answer } from '../api/client';
import { getRecovery, reportRecoveryFailed } from '../api/shareEndpoints';
import type { ProtectedRecoveryShare } from '../api/types';
import { enrollThisBrowser } from './enrollDevice';
import { evaluatePasskey } from './passkey';
import { openWithPrf } from './passkeyKey';
import { needsOprf, openWithPassword, type ProgressListener, protectWithPassword } from './passwordKey';
import { type EvaluateBlinded, evaluateOnServer, hardenPassword } from './passwordOprf';
import { type PendingRotation, prepareRotation } from './rotateShares';
import { withWalletLock } from './walletLock';

/** How the person unlocks the recovery share. */
export type RecoverySecret = { method: 'password'; password: string } | { method: 'passkey' };

export type RecoveryStage = 'fetching' | 'unlocking' | 'enrolling' | 'protecting';

/** The wallet recovered here: this browser is one of its devices now. */
export interface RecoveredHere {
  address: `0x${string}`;
  /**
   * A recovery record written before the OPRF, re-wrapped under the password's OPRF-hardened key as a new
   * recovery pair, waiting to be sent ({@link commitRotation}); null when the record needs nothing.
   */
  rewrap: PendingRotation | null;
}

/**
 * Recovers the wallet on this browser and makes it one of the wallet's devices: fetches the encrypted
 * recovery share with the recovery pair's auth share and address (`GET /api/wallet/recovery`), decrypts it
 * (the password through the server's OPRF, or the passkey's PRF), combines the two and checks the address,
 * then enrolls this browser (`how: recovered`, {@link enrollThisBrowser}) and keeps the device here. No other
 * device is touched, and the recovery pair stays as it is: the browser the person used before still opens
 * the wallet (no lock-outs).
 *
 * A password is hardened through the server's OPRF ({@link hardenPassword}); the server counts each
 * evaluation against the hourly recovery limit (and nothing else of a try: fetching the record is free), so a
 * wrong password costs one try and needs no separate report. A record written before the OPRF opens with
 * scrypt alone (a wrong password is then reported, as before), and is re-wrapped: a new recovery pair,
 * protected with the OPRF, which the caller sends ({@link RecoveredHere} `rewrap`).
 *
 * Runs the enrolment under the wallet's Web Lock.
 *
 * @throws {DialError} `wrong_recovery_password` (saying the tries left before a wait, for a hardened record,
 * and after the last one the wait, in `retryAfterSeconds`), `too_many_requests` (with the wait),
 * `recovery_not_set_up`, `wallet_mismatch`, `user_rejected` (passkey cancelled), `devices_limit_reached`, or
 * an API error.
 */
export async function recoverWallet(
  userId: string,
  secret: RecoverySecret,
  onStage: (stage: RecoveryStage, progress: number | null) => void,
  evaluate: EvaluateBlinded = evaluateOnServer,
): Promise<RecoveredHere> {
  onStage('fetching', null);
  const stored = await getRecovery();
  const address = stored.address;

  const progress =
    (stage: RecoveryStage): ProgressListener =>
    (fraction) =>
      onStage(stage, fraction);
  let recoveryShare: Uint8Array;
  // For a record written before the OPRF: how its new recovery share is protected.
  let rewrap: ((share: Uint8Array) => Promise<ProtectedRecoveryShare>) | null = null;
  // Wipes what protecting the next recovery share needed (the password's OPRF output).
  let wipe = () => {};
  if (secret.method === 'password') {
    if (stored.method !== 'password')
      throw new DialError('invalid_data', { details: 'recovery is a passkey' });
    const { password } = secret;
    onStage('unlocking', 0);
    const unlocked = await unlockWithPassword(stored, address, password, evaluate, progress('unlocking'));
    recoveryShare = unlocked.share;
    const { oprfOutput } = unlocked;
    wipe = () => oprfOutput.fill(0);
    if (!needsOprf(stored.kdf)) {
      rewrap = (share) => protectWithPassword(share, address, password, oprfOutput, progress('protecting'));
    }
  } else {
    if (stored.kdf.name !== 'webauthn-prf')
      throw new DialError('invalid_data', { details: 'recovery is a password' });
    onStage('unlocking', null);
    const { kdf } = stored;
    const outputs = await evaluatePasskey(kdf);
    recoveryShare = await unlockOrReport(
      () => openWithPrf(stored, address, outputs.current),
      'That passkey does not unlock your recovery key. Use the passkey you set up recovery with.',
    );
  }

  try {
    const authShare = decodeShare(stored.authShare);
    let privateKey: `0x${string}`;
    try {
      privateKey = await combineWalletShares([recoveryShare, authShare], address);
    } finally {
      recoveryShare.fill(0);
      authShare.fill(0);
    }
    onStage('enrolling', null);
    await withWalletLock(userId, () => enrollThisBrowser(userId, privateKey, stored, 'recovered'));
    const protect = rewrap;
    if (protect === null) return { address, rewrap: null };
    onStage('protecting', 0);
    return {
      address,
      rewrap: await prepareRotation(userId, address, stored.generation, privateKey, protect),
    };
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
