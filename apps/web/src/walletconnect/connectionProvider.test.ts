import { SUPPORTED_CHAINS } from '@dial/core';
import { type RelayStandIn, startRelayStandIn, startTestWallet } from '@dial/wcrelay';
import { verifyMessage } from 'viem';
import { base, polygon } from 'viem/chains';
import { afterEach, expect, it } from 'vitest';
import { switchChain } from '../connect/sendWithWallet';
import { PROVIDER_ERRORS, providerErrorCode } from '../connect/walletProvider';
import { TEST_WALLET_ADDRESS, TEST_WALLET_KEY } from '../keys/testing/testWallet';
import { walletConnectProvider } from './connectionProvider';
import { connectWithWalletConnect } from './connectWithWalletConnect';

const PROJECT_ID = '4f1c0000d1a10000000000000000c0de';
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A real connection: the relay stand-in, and a WalletKit wallet approving Base and Polygon. */
async function connected() {
  const relay: RelayStandIn = await startRelayStandIn({ projectId: PROJECT_ID });
  cleanups.push(() => relay.close());
  const wallet = await startTestWallet({
    relayUrl: relay.url,
    projectId: PROJECT_ID,
    privateKey: TEST_WALLET_KEY,
    chainIds: [base.id, polygon.id],
  });
  cleanups.push(() => wallet.close());
  const connection = await connectWithWalletConnect({
    projectId: PROJECT_ID,
    relayUrl: relay.url,
    metadata: { name: 'Dial', description: 'Dial in a test', url: 'http://localhost:8080', icons: [] },
    chainIds: SUPPORTED_CHAINS.map((chain) => chain.id),
    onUri: (uri) => void wallet.pair(uri),
  });
  cleanups.push(() => connection.disconnect());
  return { relay, wallet, connection };
}

it('answers eth_chainId and switches among the approved chains itself, and asks the wallet on the chain switched to', async () => {
  const { relay, wallet, connection } = await connected();
  const provider = walletConnectProvider(connection);

  // The first of Dial's chains the wallet approved (Polygon comes before Base in Dial's list).
  expect(connection.chainId).toBe(polygon.id);
  expect(await provider.request({ method: 'eth_chainId' })).toBe('0x89');
  expect(await provider.request({ method: 'eth_accounts' })).toEqual([TEST_WALLET_ADDRESS]);
  // Sending's own chain switch, as it runs before eth_sendTransaction.
  await switchChain(provider, base);
  expect(await provider.request({ method: 'eth_chainId' })).toBe('0x2105');

  const signature = (await provider.request({
    method: 'personal_sign',
    params: ['Sign in to the test', TEST_WALLET_ADDRESS],
  })) as `0x${string}`;
  expect(
    await verifyMessage({ address: TEST_WALLET_ADDRESS, message: 'Sign in to the test', signature }),
  ).toBe(true);
  // Only the signature went to the wallet, on the chain switched to.
  expect(wallet.requests.map(({ method, chainId }) => ({ method, chainId }))).toEqual([
    { method: 'personal_sign', chainId: `eip155:${base.id}` },
  ]);
  expect(relay.refusals).toEqual([]);
});

it('refuses to switch to a chain the wallet did not approve, with 4901, and stays on its chain', async () => {
  const { wallet, connection } = await connected();
  const provider = walletConnectProvider(connection);

  const error = await provider
    .request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa' }] })
    .catch((caught: unknown) => caught);

  expect(providerErrorCode(error)).toBe(PROVIDER_ERRORS.chainDisconnected);
  expect(await provider.request({ method: 'eth_chainId' })).toBe('0x89');
  expect(wallet.requests).toEqual([]);
});
