import { type RelayStandIn, startRelayStandIn, startTestWallet, type TestWallet } from '@dial/wcrelay';
import { expect, type Page, test } from '@playwright/test';
import { http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { snap } from './steps.js';
import { LOCAL_CHAIN_ID, localBalance, setLocalBalance } from './testWallet.js';

// WalletConnect without the internet: the server (playwright.config.ts) sends the browser to a relay stand-in
// on loopback, started here, in the worker, so the tests read what it saw; on the other end, a wallet
// driven by WalletConnect's own SDK (WalletKit) in Node, as a wallet app on a phone would be.
const projectId = process.env.E2E_WALLETCONNECT_PROJECT_ID ?? '';
const relayPort = Number(process.env.E2E_WALLETCONNECT_RELAY_PORT);
const chainURL = `http://127.0.0.1:${process.env.E2E_CHAIN_PORT ?? '8646'}`;

let relay: RelayStandIn;
/** How far the page's clock is ahead of this one (page.clock), so the stand-in accepts its auth tokens. */
let pageClockAhead = 0;
const wallets: TestWallet[] = [];

test.beforeAll(async () => {
  relay = await startRelayStandIn({ projectId, port: relayPort, now: () => Date.now() + pageClockAhead });
});
test.afterAll(async () => {
  await relay.close();
});
test.afterEach(async () => {
  pageClockAhead = 0;
  for (const wallet of wallets.splice(0)) await wallet.close();
});

/** A WalletKit wallet with a fresh key (funded with `eth` on the local chain), offering the local chain only. */
async function walletOnAnotherDevice(eth = '0'): Promise<TestWallet> {
  const privateKey = generatePrivateKey();
  if (eth !== '0') await setLocalBalance(privateKeyToAccount(privateKey).address, parseEther(eth));
  const wallet = await startTestWallet({
    relayUrl: relay.url,
    projectId,
    privateKey,
    chainIds: [LOCAL_CHAIN_ID],
    chainTransport: () => http(chainURL),
  });
  wallets.push(wallet);
  return wallet;
}

/** Opens WalletConnect on the sign-in screen and reads the `wc:` link the page shows next to its QR code. */
async function openWalletConnect(page: Page): Promise<string> {
  await page
    .getByRole('region', { name: 'Or continue with a wallet' })
    .getByRole('button', { name: 'WalletConnect' })
    .click();
  await expect(page.getByRole('heading', { name: 'Connect a wallet with WalletConnect' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'WalletConnect QR code to connect your wallet' })).toBeVisible();
  const link = page.getByRole('figure', { name: 'WalletConnect link' });
  await expect(link).toHaveText(/^wc:[0-9a-f]{64}@2\?/);
  return (await link.textContent()) ?? '';
}

/** Signs in through WalletConnect with `wallet` and waits for the wallet home. */
async function signInThroughWalletConnect(page: Page, wallet: TestWallet): Promise<void> {
  await page.goto('/');
  const uri = await openWalletConnect(page);
  await wallet.pair(uri);
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
}

test('signs in with a wallet on another device through WalletConnect: QR code and link, approval, a signed SIWE message', async ({
  page,
}) => {
  const wallet = await walletOnAnotherDevice();
  const refusalsBefore = relay.refusals.length;
  const connectionsBefore = relay.connections.length;

  await page.goto('/');
  const uri = await openWalletConnect(page);
  expect(uri).toContain(`relay-protocol=irn`);
  await snap(page, 'walletconnect-qr');

  // The wallet app scans the code (pairs with the link), approves the session and signs in.
  await wallet.pair(uri);
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(wallet.address);
  await snap(page, 'walletconnect-home');

  // One proposal, from this page, for the local chain among others; one session; one EIP-4361 message.
  expect(wallet.proposals).toHaveLength(1);
  expect(wallet.proposals[0]!.params.proposer.metadata.url).toBe(new URL(page.url()).origin);
  expect(wallet.proposals[0]!.params.optionalNamespaces.eip155?.chains).toContain(`eip155:${LOCAL_CHAIN_ID}`);
  expect(wallet.sessions).toHaveLength(1);
  expect(wallet.requests.map((request) => request.method)).toEqual(['personal_sign']);
  const request = wallet.requests[0]!;
  expect(request.chainId).toBe(`eip155:${LOCAL_CHAIN_ID}`);
  const [hexMessage, signer] = request.params as [`0x${string}`, string];
  expect(signer).toBe(wallet.address);
  const message = Buffer.from(hexMessage.slice(2), 'hex').toString('utf8');
  expect(message).toMatch(/^localhost:\d+ wants you to sign in with your Ethereum account:\n/);
  expect(message).toContain(`\n${wallet.address}\n`);
  expect(message).toContain(`\nChain ID: ${LOCAL_CHAIN_ID}\n`);

  const me = await page.evaluate(async () => (await (await fetch('/api/me')).json()) as { user: unknown });
  expect(me.user).toMatchObject({ wallet: { address: wallet.address, kind: 'external' } });

  // The relay saw the page and the wallet with the configured project id, and refused neither anything.
  const connections = relay.connections.slice(connectionsBefore);
  expect(connections.length).toBeGreaterThanOrEqual(2);
  for (const connection of connections) expect(connection.projectId).toBe(projectId);
  expect(relay.refusals.slice(refusalsBefore)).toEqual([]);
});

test('sends ETH through the WalletConnect connection: the wallet on the other device sends it on the local chain', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const wallet = await walletOnAnotherDevice('1');
  const refusalsBefore = relay.refusals.length;
  await signInThroughWalletConnect(page, wallet);
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);

  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill(recipient);
  await page.getByLabel('Amount (ETH)').fill('0.25');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText(/^Confirmed/, {
    timeout: 30_000,
  });
  await snap(page, 'walletconnect-send-status');

  expect(await localBalance(recipient)).toBe(parseEther('0.25'));
  const sends = wallet.requests.filter((request) => request.method === 'eth_sendTransaction');
  expect(sends).toHaveLength(1);
  expect(sends[0]!.chainId).toBe(`eip155:${LOCAL_CHAIN_ID}`);
  expect(sends[0]!.params).toEqual([
    expect.objectContaining({ from: wallet.address, to: recipient, value: '0x3782dace9d90000' }),
  ]);
  expect(relay.refusals.slice(refusalsBefore)).toEqual([]);
});

test('a proposal left unanswered for five minutes expires; "Try again" gives a new link', async ({
  page,
}) => {
  await page.clock.install();
  await page.goto('/');
  const first = await openWalletConnect(page);
  const refusalsBefore = relay.refusals.length;

  // Nobody scans the code: five minutes pass (the page's clock; the stand-in's moves with it).
  pageClockAhead = 5 * 60_000 + 1_000;
  await page.clock.fastForward(pageClockAhead);
  await expect(page.getByRole('alert')).toHaveText(
    'Your wallet did not approve the connection within 5 minutes, so the QR code has expired. Try again to get a new one.',
  );
  const retry = page.getByRole('button', { name: 'Try again' });
  await expect(retry).toBeFocused();
  await expect(page.getByRole('figure', { name: 'WalletConnect link' })).toHaveCount(0);
  await snap(page, 'walletconnect-expired');

  await retry.click();
  const second = await openWalletConnectLink(page);
  expect(second).not.toBe(first);
  expect(relay.refusals.slice(refusalsBefore)).toEqual([]);
});

/** The `wc:` link shown after "Try again" (the panel is already open). */
async function openWalletConnectLink(page: Page): Promise<string> {
  const link = page.getByRole('figure', { name: 'WalletConnect link' });
  await expect(link).toHaveText(/^wc:[0-9a-f]{64}@2\?/);
  return (await link.textContent()) ?? '';
}
