import { privateKeyToAddress } from 'viem/accounts';

/** A key nobody uses: 1. */
const SOME_KEY = `0x${'0'.repeat(63)}1` as const;

/**
 * Computes secp256k1's tables of the generator's multiples (done once per page, on the first key turned into
 * an address: tens of milliseconds on a slow phone) ahead of time, so that opening the wallet after sign-in
 * (which checks that the rebuilt key is the wallet's address) does not wait for them. Call it when the
 * browser is idle, while the code is typed.
 */
export function warmUpKeyMath(): void {
  privateKeyToAddress(SOME_KEY);
}
