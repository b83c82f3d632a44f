import { type Address, type Hex, verifyMessage } from 'viem';
import { ChainReadError, chainClients, RPC_TIMEOUT_MS, shortMessage } from './chainReader.js';
import type { ChainConfig } from './chainRpcUrl.js';

/** A message, the account said to have signed it, and the signature (EIP-191). */
export interface SignedMessage {
  address: Address;
  message: string;
  signature: Hex;
}

/**
 * Checks that an account signed a message (EIP-191), whether the account is a key or a contract: first
 * {@link MessageSignatureVerifier.signedByKey}, then, when that fails, {@link MessageSignatureVerifier.signedOnChain}.
 * Two steps, so that a caller can bound the second (a call to the chain's RPC) without holding back the first.
 */
export interface MessageSignatureVerifier {
  /**
   * Whether `signature` is the EIP-191 signature of the key whose address is `address` (an ordinary
   * account, EOA): recovered here, without the chain. Never throws: a malformed signature is `false`.
   */
  signedByKey(signed: SignedMessage): Promise<boolean>;
  /**
   * Whether chain `chainId` says `address` signed: ERC-1271 (`isValidSignature` of a deployed contract
   * wallet) and ERC-6492 (a wallet not deployed yet, whose signature carries its deployment), through
   * viem's deployless universal validator, asked of the chain's RPC.
   *
   * @throws {ChainReadError} when the chain could not answer (no RPC, a failure, a timeout, or an RPC that
   * serves another chain): nothing is known, which is never "invalid".
   */
  signedOnChain(chainId: number, signed: SignedMessage): Promise<boolean>;
}

/**
 * A {@link MessageSignatureVerifier} over the RPCs of `config` (`chainRpcUrl`: `RPC_URL_<chainId>`, the
 * chain's default, or the local chain's), each call bounded by `timeoutMs` and not retried.
 *
 * @example
 * const verifier = createMessageSignatureVerifier(config);
 * (await verifier.signedByKey(signed)) || (await verifier.signedOnChain(8453, signed)); // true | false
 */
export function createMessageSignatureVerifier(
  config: ChainConfig,
  options: { timeoutMs?: number } = {},
): MessageSignatureVerifier {
  const timeout = options.timeoutMs ?? RPC_TIMEOUT_MS;
  const clientFor = chainClients(config, timeout);

  return {
    async signedByKey({ address, message, signature }) {
      return verifyMessage({ address, message, signature }).catch(() => false);
    },

    async signedOnChain(chainId, { address, message, signature }) {
      const client = clientFor(chainId);
      let answers: [number, boolean];
      try {
        answers = await Promise.all([
          client.getChainId(),
          client.verifyMessage({ address, message, signature }),
        ]);
      } catch (error) {
        // Not the error itself as `cause`: viem's messages carry the RPC URL, which may hold an API key.
        throw new ChainReadError(`checking a signature on chain ${chainId} failed: ${shortMessage(error)}`);
      }
      const [actualChainId, valid] = answers;
      // A contract wallet's answer on another chain says nothing about this one.
      if (actualChainId !== chainId) {
        throw new ChainReadError(`the RPC of chain ${chainId} serves chain ${actualChainId}`);
      }
      return valid;
    },
  };
}
