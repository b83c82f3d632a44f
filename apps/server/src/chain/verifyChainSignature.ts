import { type Address, type Hex, verifyMessage } from 'viem';
import { ChainReadError, chainClients, RPC_TIMEOUT_MS, shortMessage } from './chainReader.js';
import type { ChainConfig } from './chainRpcUrl.js';

/** Checks that an account signed a message (EIP-191), whether the account is a key or a contract. */
export interface MessageSignatureVerifier {
  /**
   * Whether `signature` is `address`'s over `message` on chain `chainId`: an ordinary account's (EOA)
   * EIP-191 signature is checked here without the chain; any other is asked of the chain's RPC: ERC-1271
   * (`isValidSignature` of a deployed contract wallet) and ERC-6492 (a wallet not deployed yet, whose
   * signature carries its deployment), through viem's deployless universal validator.
   *
   * @throws {ChainReadError} when the chain had to be asked and could not answer (no RPC, a failure, a
   * timeout, or an RPC that serves another chain): nothing is known, which is never "invalid".
   */
  verifyMessage(
    chainId: number,
    signed: { address: Address; message: string; signature: Hex },
  ): Promise<boolean>;
}

/**
 * A {@link MessageSignatureVerifier} over the RPCs of `config` (`chainRpcUrl`: `RPC_URL_<chainId>`, the
 * chain's default, or the local chain's), each call bounded by `timeoutMs` and not retried.
 *
 * @example
 * const verifier = createMessageSignatureVerifier(config);
 * await verifier.verifyMessage(8453, { address, message, signature }); // true | false
 */
export function createMessageSignatureVerifier(
  config: ChainConfig,
  options: { timeoutMs?: number } = {},
): MessageSignatureVerifier {
  const timeout = options.timeoutMs ?? RPC_TIMEOUT_MS;
  const clientFor = chainClients(config, timeout);

  return {
    async verifyMessage(chainId, { address, message, signature }) {
      // An ordinary account's signature needs no chain: the RPC is asked only about contract wallets.
      if (await verifyMessage({ address, message, signature }).catch(() => false)) return true;
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
