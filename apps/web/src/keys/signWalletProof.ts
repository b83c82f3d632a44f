import { type WalletProofFields, walletProofMessage } from '@dial/core';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { getWalletChallenge } from '../api/endpoints';
import type { WalletProof } from '../api/types';

/**
 * Proves to the server that a change comes from whoever holds the wallet's key: asks for a single-use
 * challenge for this session and purpose, and signs core's `walletProofMessage` over it and exactly what the
 * server will store (the address, the generation replaced, the auth share, the recovery share). The server
 * checks the signature against the registered address before it stores anything.
 */
export async function signWalletProof(
  privateKey: Hex,
  fields: Omit<WalletProofFields, 'challenge'>,
): Promise<WalletProof> {
  const { challenge } = await getWalletChallenge(fields.purpose);
  const message = walletProofMessage({ ...fields, challenge });
  const signature = await privateKeyToAccount(privateKey).signMessage({ message });
  return { challenge, signature };
}
