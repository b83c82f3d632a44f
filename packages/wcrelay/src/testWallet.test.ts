import { randomBytes } from 'node:crypto';
import { SignClient } from '@walletconnect/sign-client';
import { verifyMessage } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterEach, expect, it } from 'vitest';
import { type RelayStandIn, startRelayStandIn } from './relayStandIn.js';
import { startTestWallet, type TestWallet } from './testWallet.js';

const PROJECT_ID = '00000000000000000000000000000abc';
// A throwaway key: this test only signs.
const PRIVATE_KEY = `0x${'11'.repeat(32)}` as const;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(
  onProposal?: 'approve' | 'reject',
): Promise<{ relay: RelayStandIn; wallet: TestWallet; dapp: Awaited<ReturnType<typeof SignClient.init>> }> {
  const relay = await startRelayStandIn({ projectId: PROJECT_ID });
  cleanups.push(() => relay.close());
  const wallet = await startTestWallet({
    relayUrl: relay.url,
    projectId: PROJECT_ID,
    privateKey: PRIVATE_KEY,
    chainIds: [8453],
    ...(onProposal === undefined ? {} : { onProposal }),
  });
  cleanups.push(() => wallet.close());
  const dapp = await SignClient.init({
    projectId: PROJECT_ID,
    relayUrl: relay.url,
    customStoragePrefix: `dapp-${randomBytes(8).toString('hex')}`,
    telemetryEnabled: false,
    logger: 'silent',
    metadata: { name: 'Dapp', description: 'A dapp', url: 'http://localhost', icons: [] },
  });
  cleanups.push(async () => {
    dapp.core.heartbeat.stop();
    await dapp.core.relayer.transportClose();
  });
  return { relay, wallet, dapp };
}

it('pairs with a wc: link, approves the eip155 session and signs personal_sign through the relay stand-in', async () => {
  const { relay, wallet, dapp } = await setUp();
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: {
      eip155: { chains: ['eip155:137', 'eip155:8453'], methods: ['personal_sign'], events: [] },
    },
  });
  await wallet.pair(uri!);
  const session = await approval();
  const address = privateKeyToAccount(PRIVATE_KEY).address;
  expect(session.namespaces.eip155?.accounts).toEqual([`eip155:8453:${address}`]);
  const message = 'Sign in to the test';
  const signature = (await dapp.request({
    topic: session.topic,
    chainId: 'eip155:8453',
    request: { method: 'personal_sign', params: [message, address] },
  })) as `0x${string}`;
  expect(await verifyMessage({ address, message, signature })).toBe(true);
  expect(wallet.requests).toEqual([
    expect.objectContaining({ method: 'personal_sign', params: [message, address], chainId: 'eip155:8453' }),
  ]);
  expect(relay.refusals).toEqual([]);
  expect(relay.connections).toHaveLength(2);
});

it('rejects a proposal when told to, with the SDK\u2019s "user rejected" error', async () => {
  const { relay, wallet, dapp } = await setUp('reject');
  const { uri, approval } = await dapp.connect({
    optionalNamespaces: { eip155: { chains: ['eip155:8453'], methods: ['personal_sign'], events: [] } },
  });
  await wallet.pair(uri!);
  await expect(approval()).rejects.toEqual(expect.objectContaining({ code: 5000 }));
  expect(relay.refusals).toEqual([]);
});
