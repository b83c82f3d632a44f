import { createHash, randomBytes } from 'node:crypto';
import {
  type AccountChangeAction,
  accountChangeMessage,
  decodeShare,
  encodeShare,
  type RecoveryShareRecord,
  SHARE_LENGTH,
  type WalletProofPurpose,
  walletProofMessage,
} from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { TestApp } from './testApp.js';

/** A test wallet: a fixed private key (the n-th of 1, 2, 3, …) and its address. */
export interface TestWallet {
  privateKey: Hex;
  address: `0x${string}`;
}

/** The n-th test wallet (n ≥ 1): the same key in every run, so tests can name its address. */
export function testWallet(n = 1): TestWallet {
  const privateKey = `0x${n.toString(16).padStart(64, '0')}` as Hex;
  return { privateKey, address: privateKeyToAccount(privateKey).address };
}

/** A random auth share, base64. */
export function randomShare(): string {
  return encodeShare(new Uint8Array(randomBytes(SHARE_LENGTH)));
}

/**
 * A browser's device as the web app makes one: the auth share the server will keep for it (base64), its
 * 32-byte unlock secret (base64url, which only that browser keeps) and the secret's SHA-256 (hex).
 */
export interface TestDevice {
  authShare: string;
  secret: string;
  secretHash: string;
}

/** A fresh device: a random auth share and a random unlock secret with its hash. */
export function testDevice(): TestDevice {
  const secret = randomBytes(32);
  return {
    authShare: randomShare(),
    secret: secret.toString('base64url'),
    secretHash: createHash('sha256').update(secret).digest('hex'),
  };
}

/** A device as the routes take it (`DeviceInputSchema`): its auth share and secret hash, not the secret. */
export function deviceInput(device: TestDevice): { authShare: string; secretHash: string } {
  return { authShare: device.authShare, secretHash: device.secretHash };
}

/** Asks the server for a challenge for `purpose` with this session; throws unless it answers 201. */
export async function requestChallenge(
  t: TestApp,
  token: string,
  purpose: WalletProofPurpose,
): Promise<string> {
  const response = await t.post('/api/wallet/challenge', { purpose }, { token });
  if (response.statusCode !== 201) {
    throw new Error(`challenge answered ${response.statusCode}: ${response.body}`);
  }
  return response.json().challenge;
}

/** The signed-in user's id. */
export async function userIdOf(t: TestApp, token: string): Promise<string> {
  const response = await t.get('/api/me', { token });
  if (response.statusCode !== 200) throw new Error(`/api/me answered ${response.statusCode}`);
  return response.json().user.id;
}

/** What a proof is signed over, as the web app builds it. */
export interface ProofInput {
  purpose: WalletProofPurpose;
  challenge: string;
  userId: string;
  address: string;
  fromGeneration: number;
  /** The recovery pair's auth share, base64; `null` when none is stored (enrolling a device). */
  authShare: string | null;
  recovery: RecoveryShareRecord | null;
  /** The device the server will store (registering, enrolling); none by default (rotating). */
  device?: { authShare: string; secretHash: string } | null;
}

/** Signs a proof with `privateKey`, exactly as the web app does. */
export async function signProof(
  privateKey: Hex,
  input: ProofInput,
): Promise<{ challenge: string; signature: Hex }> {
  const { device } = input;
  const message = walletProofMessage({
    ...input,
    authShare: input.authShare === null ? null : decodeShare(input.authShare),
    device:
      device === undefined || device === null
        ? null
        : { authShare: decodeShare(device.authShare), secretHash: device.secretHash },
  });
  const signature = await privateKeyToAccount(privateKey).signMessage({ message });
  return { challenge: input.challenge, signature };
}

/**
 * The body of `POST /api/wallet` for `address`, the recovery pair's `authShare` and the first `device`,
 * signed by `signer`'s key over a challenge of this session, as the web app builds it.
 */
export async function signedRegistration(
  t: TestApp,
  token: string,
  signer: TestWallet,
  address: string,
  authShare: string,
  device: TestDevice = testDevice(),
): Promise<{
  address: string;
  authShare: string;
  device: { authShare: string; secretHash: string };
  proof: { challenge: string; signature: Hex };
}> {
  const proof = await signProof(signer.privateKey, {
    purpose: 'register-wallet',
    challenge: await requestChallenge(t, token, 'register-wallet'),
    userId: await userIdOf(t, token),
    address,
    fromGeneration: 0,
    authShare,
    recovery: null,
    device: deviceInput(device),
  });
  return { address, authShare, device: deviceInput(device), proof };
}

/**
 * Registers a wallet for the signed-in user the way the web app does: a challenge, the key's signature over
 * the address, the recovery pair's auth share and the first device, then `POST /api/wallet`. Returns the
 * answer, the auth share sent and the device (with its secret, to unlock it).
 */
export async function registerWallet(
  t: TestApp,
  token: string,
  options: { wallet?: TestWallet; authShare?: string; address?: string; device?: TestDevice } = {},
): Promise<{ response: LightMyRequestResponse; authShare: string; wallet: TestWallet; device: TestDevice }> {
  const wallet = options.wallet ?? testWallet(1);
  const authShare = options.authShare ?? randomShare();
  const device = options.device ?? testDevice();
  const body = await signedRegistration(
    t,
    token,
    wallet,
    options.address ?? wallet.address,
    authShare,
    device,
  );
  const response = await t.post('/api/wallet', body, { token });
  return { response, authShare, wallet, device };
}

/**
 * The body of `POST /api/wallet/devices` (or, with `sealedShare`, of a link's confirmation) enrolling
 * `device`, signed by `wallet`'s key over a challenge of this session (purpose `enroll-device`, the wallet's
 * generation `fromGeneration`, 1 by default), as the web app builds it.
 */
export async function signedEnrollment(
  t: TestApp,
  token: string,
  wallet: TestWallet,
  device: TestDevice,
  options: { fromGeneration?: number; signer?: TestWallet } = {},
): Promise<{
  address: string;
  device: { authShare: string; secretHash: string };
  proof: { challenge: string; signature: Hex };
}> {
  const proof = await signProof((options.signer ?? wallet).privateKey, {
    purpose: 'enroll-device',
    challenge: await requestChallenge(t, token, 'enroll-device'),
    userId: await userIdOf(t, token),
    address: wallet.address,
    fromGeneration: options.fromGeneration ?? 1,
    authShare: null,
    recovery: null,
    device: deviceInput(device),
  });
  return { address: wallet.address, device: deviceInput(device), proof };
}

/** `POST /api/wallet/devices/:id/unlock` with `secret`. */
export function unlockDevice(
  t: TestApp,
  token: string,
  id: string,
  secret: string,
): Promise<LightMyRequestResponse> {
  return t.post(`/api/wallet/devices/${id}/unlock`, { secret }, { token });
}

/** The body of a share rotation signed by `wallet`'s key, ready for `PUT /api/wallet/shares`. */
export async function signedRotation(
  t: TestApp,
  token: string,
  wallet: TestWallet,
  body: { expectedGeneration: number; authShare: string; recovery?: RecoveryShareRecord; address?: string },
): Promise<Record<string, unknown>> {
  const proof = await signProof(wallet.privateKey, {
    purpose: 'rotate-shares',
    challenge: await requestChallenge(t, token, 'rotate-shares'),
    userId: await userIdOf(t, token),
    address: wallet.address,
    fromGeneration: body.expectedGeneration,
    authShare: body.authShare,
    recovery: body.recovery ?? null,
  });
  return { address: wallet.address, ...body, proof };
}

/**
 * The step-up proof of one change to the account, signed by `wallet`'s key over a challenge of this session,
 * exactly as the web app builds it (core's `accountChangeMessage`).
 */
export async function accountProof(
  t: TestApp,
  token: string,
  wallet: TestWallet,
  change: { action: AccountChangeAction; target: string },
): Promise<{ challenge: string; address: string; signature: Hex }> {
  const response = await t.post('/api/account/proof', { action: change.action }, { token });
  if (response.statusCode !== 201) {
    throw new Error(`account proof challenge answered ${response.statusCode}: ${response.body}`);
  }
  const { challenge } = response.json() as { challenge: string };
  const message = accountChangeMessage({
    ...change,
    challenge,
    userId: await userIdOf(t, token),
    address: wallet.address,
  });
  const signature = await privateKeyToAccount(wallet.privateKey).signMessage({ message });
  return { challenge, address: wallet.address, signature };
}
