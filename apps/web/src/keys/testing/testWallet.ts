import type { ProtectedRecoveryShare } from '../../api/types';

/**
 * The key tests' wallet: Hardhat's public account 0 (never for real funds; the dev chain's faucet in
 * `@dial/devchain`'s `devAccount.ts`), and its address.
 */
export const TEST_WALLET_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const TEST_WALLET_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/**
 * A password recovery record of the shape the server accepts (scrypt at Dial's cost, with the OPRF) whose
 * ciphertext is no real share: for tests that store a record and never open it.
 */
export const UNOPENED_PASSWORD_RECORD = {
  method: 'password',
  ciphertext: 'AAAA',
  kdf: {
    name: 'scrypt',
    N: 2 ** 17,
    r: 8,
    p: 1,
    salt: 'AAAAAAAAAAAAAAAAAAAAAA==',
    oprf: 'ristretto255-sha512',
  },
} as const satisfies ProtectedRecoveryShare;
