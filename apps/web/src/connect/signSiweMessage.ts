import { DialError } from '@dial/core';
import { getAddress, hexToNumber, isAddress, stringToHex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import type { SiweNonce } from '../api/types';
import { walletError } from './walletError';
import type { WalletProvider } from './walletProvider';

/** What a wallet step is waiting for, for the status line. */
export type WalletSignInStep = 'connecting' | 'signing' | 'verifying';

/** A Sign-In with Ethereum message and the wallet's signature of it. */
export interface SignedSiwe {
  message: string;
  signature: `0x${string}`;
  address: `0x${string}`;
}

/**
 * Has a wallet the person already has sign a Sign-In with Ethereum message (EIP-4361): asks the wallet for
 * its account, gets a nonce from the server (`getNonce`: signing in, or linking the wallet to the signed-in
 * account), builds the message with what the server says it will check (domain, URI, statement; the
 * wallet's chain when the server accepts it, else the server's first), and has the wallet sign it
 * (`personal_sign`). The caller sends it to be verified.
 *
 * `known` is an account and chain already connected (WalletConnect gives them): then the wallet is not asked
 * for them again. This module is loaded only once the person picks a wallet (it brings viem's SIWE code).
 *
 * @throws {DialError} `user_rejected` when the person declines in the wallet, `unsupported_chain` when no
 * chain fits, the nonce route's error, or `internal_error` for a wallet's odd answer.
 */
export async function signSiweMessage(
  provider: WalletProvider,
  getNonce: () => Promise<SiweNonce>,
  onStep: (step: WalletSignInStep) => void,
  known?: { address: string; chainId?: number },
): Promise<SignedSiwe> {
  onStep('connecting');
  const address =
    known?.address !== undefined ? checkedAddress(known.address) : await requestAccount(provider);
  const [nonce, walletChain] = await Promise.all([
    getNonce(),
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
  return { message, signature: signature as `0x${string}`, address };
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
