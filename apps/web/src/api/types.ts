import type { RECOVERY_OPRF_SUITE } from '@dial/core';

/** The API's shapes (docs/api.md), as the web app reads them. */

export interface User {
  id: string;
  /** E.164, or null for an e-mail account. */
  phone: string | null;
  /** Lower-case, or null for a phone account. */
  email: string | null;
  createdAt: string;
}

export interface LocalChainConfig {
  id: number;
  name: string;
  /** Relative to this origin, e.g. '/api/dev/chain'. */
  rpcUrl: string;
  /** The local chain's test USDC (6 decimals), or null on a chain the server did not start. */
  usdc: `0x${string}` | null;
}

export interface AppConfig {
  environment: 'development' | 'production' | 'test';
  localChain: LocalChainConfig | null;
  faucet: boolean;
  /** The sign-in channels this server can deliver codes on (older servers leave it out: both). */
  channels?: OtpChannel[];
  /**
   * The RPC URL to read a chain from instead of its public default, by chain id (`"137"`): only the chains
   * the operator set one for (older servers leave it out: none).
   */
  rpcUrls?: Record<string, string>;
  /** Funding through the on-ramp; null or absent when this server does not offer it. */
  onramp?: OnrampInfo | null;
}

/** What can be bought where (`/api/config` → `onramp`). */
export interface OnrampInfo {
  /** `sandbox`: this server's test checkout, crediting the local chain. */
  provider: 'coinbase' | 'sandbox';
  offers: OnrampOffer[];
}

export type OnrampAssetCode = 'USDC' | 'ETH' | 'BTC' | 'SOL' | 'POL';

export interface OnrampOffer {
  asset: OnrampAssetCode;
  /** The provider's network name, e.g. `base`. */
  network: string;
  /** e.g. `Arbitrum One`. */
  networkName: string;
  /** The EVM chain the funds arrive on (31337 in the sandbox); null off EVM (BTC, SOL). */
  chainId: number | null;
}

export type OtpChannel = 'sms' | 'email';

export interface OtpStarted {
  ok: true;
  channel: OtpChannel;
  /** E.164 or the lower-case e-mail address: use it as is to verify. */
  to: string;
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

export interface OtpVerified {
  user: User;
  isNewUser: boolean;
}

export interface StoredWallet {
  address: `0x${string}`;
  /** Base64 of the auth share. */
  authShare: string;
  /** Which split of the key the shares belong to: 1 at registration, +1 at every rotation. */
  generation: number;
  /** How the recovery share is protected, or null when recovery is not set up. */
  recovery: { method: 'password' | 'passkey'; createdAt: string } | null;
}

/** What the development faucet sends: 1 test ETH (`native`) or 100 test USDC (`usdc`). */
export type FaucetAsset = 'native' | 'usdc';

export interface FaucetSent {
  txHash: `0x${string}`;
  asset: FaucetAsset;
  /** A decimal string: wei for `native`, 6-decimal units for `usdc`. */
  value: string;
}

/** Proof of possession: the wallet key's signature over a server challenge and the change it authorises. */
export interface WalletProof {
  challenge: string;
  signature: `0x${string}`;
}

/** How the recovery share is protected: a password (scrypt) or a passkey (WebAuthn PRF). */
export type RecoveryMethod = 'password' | 'passkey';

export interface ScryptKdf {
  name: 'scrypt';
  N: number;
  r: number;
  p: number;
  /** Base64. */
  salt: string;
  /**
   * The key also needs the server's OPRF evaluation of the password (see `keys/passwordOprf.ts`). Absent on
   * records written before Dial hardened passwords: their key is scrypt's output alone.
   */
  oprf?: typeof RECOVERY_OPRF_SUITE;
}

export interface PasskeyKdf {
  name: 'webauthn-prf';
  /** The passkey's credential id, base64url. */
  credentialId: string;
  /** The PRF input, base64; also the HKDF salt. */
  salt: string;
}

/** Older or other clients may have stored PBKDF2; Dial itself writes scrypt. */
export interface Pbkdf2Kdf {
  name: 'pbkdf2';
  hash: 'SHA-256' | 'SHA-512';
  iterations: number;
  salt: string;
}

export type RecoveryKdf = ScryptKdf | PasskeyKdf | Pbkdf2Kdf;

/** The encrypted recovery share as the server stores it (`recovery` of `PUT /api/wallet/shares`). */
export interface ProtectedRecoveryShare {
  method: RecoveryMethod;
  /** Base64 of the 12-byte IV followed by the AES-GCM ciphertext and tag. */
  ciphertext: string;
  kdf: RecoveryKdf;
}
