import { isDialError } from '@dial/core';
import type { AppContext } from '../appContext.js';
import { rateKey } from '../config/rateKey.js';
import { isKnownDevice } from './devices.js';
import type { CodeSlot } from './otpCodes.js';
import {
  createProofChallenge,
  type ProofKeys,
  ProofOfWorkRequired,
  proofSubject,
  useProof,
} from './proofOfWork.js';

/**
 * The budgets a sign-in code is counted against, so that a flood from other browsers never locks the owner
 * out (limits of `config/rateLimits.ts`, rate-limit keys in brackets):
 * - a browser the account signed in from before (a known browser) has its own budget,
 *   `signInCodesPerKnownDevice` [`otp-codes:sign-in:known:<channel>:<identifier>:<device>`];
 * - every other browser shares the number's free codes, `signInFreeCodesPerIdentifier`
 *   [`otp-codes:sign-in:free:…`]; past them each code needs a proof of work solved in the browser
 *   (`proof_of_work_required` answers with the challenge), which costs a flood time while the owner pays it
 *   once;
 * - and the hard caps `signInCodesPerIdentifier` and `signInCodesPerIdentifierPerDay`
 *   [`otp-codes:sign-in:…`, `otp-codes:sign-in:day:…`] hold for those browsers whatever proofs they bring (SMS pumping, brute force).
 *
 * @param proof - the request's `proof` (base64 ALTCHA payload), when it sent one.
 */
export function signInBudget(
  ctx: AppContext,
  slot: CodeSlot,
  proof: string | undefined,
  proofKeys: ProofKeys,
): (now: Date) => Promise<void> {
  const { otp: policy, rateLimits: limits } = ctx.config;
  const who = `${slot.channel}:${slot.identifier}`;
  return async (now) => {
    if (await isKnownDevice(ctx.db, slot.identifier, slot.deviceHash)) {
      await ctx.rateLimiter.consume(
        rateKey('signInCodesPerKnownDevice', who, slot.deviceHash),
        limits.signInCodesPerKnownDevice,
        now,
      );
      return;
    }
    const subject = proofSubject('sign-in', slot.channel, slot.identifier);
    const proven = proof !== undefined && (await useProof(ctx.db, proofKeys, proof, subject, now));
    if (!proven) {
      try {
        await ctx.rateLimiter.consume(
          rateKey('signInFreeCodesPerIdentifier', who),
          limits.signInFreeCodesPerIdentifier,
          now,
        );
      } catch (error) {
        if (!isDialError(error, 'too_many_requests')) throw error;
        const challenge = await createProofChallenge(proofKeys, subject, policy.proofOfWork, now);
        throw new ProofOfWorkRequired(
          challenge,
          proof === undefined ? 'past the free codes' : 'proof refused',
        );
      }
    }
    await ctx.rateLimiter.consume(
      rateKey('signInCodesPerIdentifier', who),
      limits.signInCodesPerIdentifier,
      now,
    );
    await ctx.rateLimiter.consume(
      rateKey('signInCodesPerIdentifierPerDay', who),
      limits.signInCodesPerIdentifierPerDay,
      now,
    );
  };
}

/**
 * The budget of re-authentication codes: `reauthCodesPerUser` [`otp-codes:reauth:<user id>`], apart from
 * sign-in codes, so a sign-in flood against the user's number does not stop them confirming an export.
 */
export function reauthBudget(ctx: AppContext, userId: string): (now: Date) => Promise<void> {
  return async (now) => {
    await ctx.rateLimiter.consume(
      rateKey('reauthCodesPerUser', userId),
      ctx.config.rateLimits.reauthCodesPerUser,
      now,
    );
  };
}

/**
 * The budgets of link codes, apart from sign-in and re-authentication codes: `linkCodesPerUser`
 * [`otp-codes:link:<user id>`] for the account asking, and `linkCodesPerIdentifier`
 * [`otp-codes:link:to:<channel>:<identifier>`] for the number or address receiving them, whoever asks.
 */
export function linkBudget(ctx: AppContext, userId: string, slot: CodeSlot): (now: Date) => Promise<void> {
  const limits = ctx.config.rateLimits;
  return async (now) => {
    await ctx.rateLimiter.consume(rateKey('linkCodesPerUser', userId), limits.linkCodesPerUser, now);
    await ctx.rateLimiter.consume(
      rateKey('linkCodesPerIdentifier', slot.channel, slot.identifier),
      limits.linkCodesPerIdentifier,
      now,
    );
  };
}
