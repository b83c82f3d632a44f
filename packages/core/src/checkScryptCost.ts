/** scrypt's cost parameters: N (CPU and memory, a power of two), r (block size) and p (parallelism). */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

/**
 * scrypt's cost for new recovery passwords: N = 2^17, r = 8, p = 1 (128 MiB, about a second or two in a
 * browser). Since the OPRF, a stolen ciphertext cannot be guessed against without the server; scrypt is
 * what still slows down someone who has the server's key too (a stolen `SHARE_ENCRYPTION_KEY` with the
 * database), and all that protects records written before the OPRF.
 */
export const SCRYPT_COST = Object.freeze({ N: 2 ** 17, r: 8, p: 1 } as const);

/**
 * The scrypt parameters a recovery record may have: N from 2^15 to 2^20 (32 MiB to 1 GiB with r = 8), r up
 * to 16, p up to 4. The web app refuses to run scrypt outside them (the server, or whoever tampered with its
 * answer, chooses them for a stored record, and an N of 2^30 or a huge r or p would freeze the tab or
 * exhaust its memory); the server refuses to store a record outside them, since the web app could never open
 * it, and the floor keeps a weak setting from being stored.
 */
export const SCRYPT_LIMITS = Object.freeze({ minN: 2 ** 15, maxN: 2 ** 20, maxR: 16, maxP: 4 } as const);

/**
 * Says why scrypt parameters are refused: N is not a power of two or outside {@link SCRYPT_LIMITS}, r or p
 * is not an integer from 1 to its ceiling.
 *
 * @param cost - The parameters, e.g. those of a stored recovery record.
 * @returns Why they are refused (for logs and developers), or `null` when they are within the limits.
 *
 * @example
 * ```ts
 * checkScryptCost(SCRYPT_COST); // null
 * checkScryptCost({ N: 2 ** 30, r: 8, p: 1 }); // 'scrypt N 1073741824 out of range'
 * ```
 */
export function checkScryptCost(cost: ScryptCost): string | null {
  const { N, r, p } = cost;
  const isPowerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  if (!isPowerOfTwo || N < SCRYPT_LIMITS.minN || N > SCRYPT_LIMITS.maxN) return `scrypt N ${N} out of range`;
  if (!Number.isInteger(r) || r < 1 || r > SCRYPT_LIMITS.maxR) return `scrypt r ${r} out of range`;
  if (!Number.isInteger(p) || p < 1 || p > SCRYPT_LIMITS.maxP) return `scrypt p ${p} out of range`;
  return null;
}
