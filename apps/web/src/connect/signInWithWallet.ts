import type { SiweNonce } from '@dial/api';
import { DialError } from '@dial/core';
import { getAddress, hexToNumber, isAddress, stringToHex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { getSiweNonce, verifySiwe } from './siweApi';
import { walletError } from './walletError';
import type { WalletProvider } from './walletProvider';

/** A nonce fetched earlier is used only with this much time left: signing may take the person a while. */
const NONCE_MARGIN_MS = 60_000;

/** What signing in is waiting for, for the status line. */
export type WalletSignInStep = 'connecting' | 'signing' | 'verifying';

export interface WalletSignInResult {
  verified: Awaited<ReturnType<typeof verifySiwe>>;
  address: `0x${string}`;
}

/**
 * Signs in with a wallet the person already has (Sign-In with Ethereum, EIP-4361): asks the wallet for its
 * account, gets a nonce from the server, builds the message with what the server says it will check
 * (domain, URI, statement; the wallet's chain when the server accepts it, else the server's first), has the
 * wallet sign it (`personal_sign`) and sends it to be verified, which starts the session.
 *
 * `known` is an account and chain already connected (WalletConnect gives them): then the wallet is not asked
 * for them again; and a nonce fetched before connecting (for its chain ids), used while it has a minute
 * left. This module is loaded only once the person picks a wallet (it brings viem's SIWE code).
 *
 * @throws {DialError} `user_rejected` when the person declines in the wallet, `unsupported_chain` when no
 * chain fits, a server error of the nonce or verify routes, or `internal_error` for a wallet's odd answer.
 */
export async function signInWithWallet(
  provider: WalletProvider,
  onStep: (step: WalletSignInStep) => void,
  known?: { address: string; chainId?: number; nonce?: SiweNonce },
): Promise<WalletSignInResult> {
  onStep('connecting');
  const address =
    known?.address !== undefined ? checkedAddress(known.address) : await requestAccount(provider);
  const [nonce, walletChain] = await Promise.all([
    known?.nonce !== undefined && Date.parse(known.nonce.expiresAt) - Date.now() > NONCE_MARGIN_MS
      ? Promise.resolve(known.nonce)
      : getSiweNonce(),
    known?.chainId !== undefined ? Promise.resolve(known.chainId) : readChainId(provider),
  ]);
  const chainId =
    walletChain !== undefined && nonce.chainIds.includes(walletChain) ? walletChain : nonce.chainIds[0];
  if (chainId === undefined)
    throw new DialError('unsupported_chain', { details: 'the server names no chain' });

  const message = createSiweMessage({
    address,
    chainId,
    domain: nonce.domain,
    uri: nonce.uri,
    nonce: nonce.nonce,
    statement: nonce.statement,
    version: '1',
    issuedAt: new Date(),
    expirationTime: new Date(nonce.expiresAt),
  });

  onStep('signing');
  let signature: unknown;
  try {
    signature = await provider.request({ method: 'personal_sign', params: [stringToHex(message), address] });
  } catch (error) {
    throw walletError(error);
  }
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(signature)) {
    throw new DialError('internal_error', {
      details: 'the wallet answered personal_sign without a signature',
    });
  }

  onStep('verifying');
  const verified = await verifySiwe(message, signature as `0x${string}`);
  return { verified, address };
}

async function requestAccount(provider: WalletProvider): Promise<`0x${string}`> {
  let accounts: unknown;
  try {
    accounts = await provider.request({ method: 'eth_requestAccounts' });
  } catch (error) {
    throw walletError(error);
  }
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  // A wallet that answers with no account has been refused access (or has none to give).
  if (first === undefined) throw new DialError('user_rejected', { details: 'the wallet gave no account' });
  return checkedAddress(first);
}

function checkedAddress(value: unknown): `0x${string}` {
  if (typeof value !== 'string' || !isAddress(value, { strict: false })) {
    throw new DialError('internal_error', { details: 'the wallet answered an account that is no address' });
  }
  return getAddress(value);
}

/** The wallet's current chain, or undefined when it does not say. */
async function readChainId(provider: WalletProvider): Promise<number | undefined> {
  try {
    const answer = await provider.request({ method: 'eth_chainId' });
    if (typeof answer === 'string' && /^0x[0-9a-fA-F]+$/.test(answer))
      return hexToNumber(answer as `0x${string}`);
    return typeof answer === 'number' ? answer : undefined;
  } catch {
    return undefined;
  }
}
