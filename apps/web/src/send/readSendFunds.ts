import { DialError } from '@dial/core';
import type { ChainClient } from '../chain/createChainClient';
import { readUsdcBalance } from '../chain/useUsdcBalance';
import type { Funds, SendAsset } from './amount';

/**
 * The balances a send is checked against just before signing, read at the `pending` block: a transfer sent
 * a moment ago and not yet mined has already taken its amount and fee there, so a quick second send is
 * checked against what will really be left (`latest` would still show the money). An RPC that refuses
 * `pending` is asked for `latest` instead, rather than blocking every send (the node's own refusal of an
 * uncovered transaction is still mapped to insufficient_balance). USDC is read only when it is sent. A chain
 * that cannot be read at all is `chain_unavailable`.
 */
export async function readSendFunds(
  client: Pick<ChainClient, 'getBalance' | 'readContract'>,
  address: `0x${string}`,
  asset: SendAsset,
  usdcAddress: `0x${string}` | undefined,
): Promise<Funds> {
  const read = async (blockTag: 'pending' | 'latest'): Promise<Funds> => {
    const [native, usdc] = await Promise.all([
      client.getBalance({ address, blockTag }),
      asset === 'usdc' && usdcAddress !== undefined
        ? readUsdcBalance(client, usdcAddress, address, blockTag)
        : Promise.resolve(undefined),
    ]);
    return { native, usdc };
  };
  try {
    return await read('pending');
  } catch {
    try {
      return await read('latest');
    } catch (caught) {
      throw new DialError('chain_unavailable', { cause: caught });
    }
  }
}
