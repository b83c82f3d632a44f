import { expect, type Locator, type Page, test } from '@playwright/test';
import {
  type Address,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  http,
  parseAbi,
  parseEther,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signInWithEmail, snap, uniqueEmail } from './steps.js';
import { LOCAL_CHAIN_ID, setLocalBalance } from './testWallet.js';

// Issue 11 §2: the whole history. Money that reaches the wallet from outside Dial (a plain local-chain
// account), the test faucet and a sandbox purchase each appear in the activity list, labelled, with their
// status and their hash to copy; the list filters by network.

const chainURL = `http://127.0.0.1:${process.env.E2E_CHAIN_PORT ?? '8646'}`;
const localChain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [chainURL] } },
});
/** The local chain's pre-funded account (Hardhat's first): the owner of the test USDC. */
const FAUCET_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';

/** A key of its own on the local chain, holding `eth` and `usdc` (6 decimals): nobody's Dial wallet. */
async function plainAccount(usdcContract: Address, usdc: bigint) {
  const account = privateKeyToAccount(generatePrivateKey());
  await setLocalBalance(account.address, parseEther('10'));
  const owner = createWalletClient({
    account: privateKeyToAccount(FAUCET_KEY),
    chain: localChain,
    transport: http(chainURL),
  });
  await owner.sendTransaction({
    to: usdcContract,
    data: encodeFunctionData({
      abi: parseAbi(['function mint(address to, uint256 amount)']),
      functionName: 'mint',
      args: [account.address, usdc],
    }),
  });
  return createWalletClient({ account, chain: localChain, transport: http(chainURL) });
}

/** The activity list's entries; refreshes until `count` are there (the watcher reads new blocks every few seconds). */
async function waitForEntries(page: Page, count: number): Promise<Locator> {
  const items = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh activity' }).click();
    await expect(items).toHaveCount(count, { timeout: 2_000 });
  }).toPass({ timeout: 45_000 });
  return items;
}

test('USDC and ETH sent from a plain local-chain account appear in the history, with the hash to copy and a network filter', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  const address = (await signInWithEmail(page, uniqueEmail('history-outside'))) as Address;
  await expect(page.getByText('No activity yet')).toBeVisible();
  const config = await (await page.request.get('/api/config')).json();
  const stranger = await plainAccount(config.localChain.usdc, 10_000_000n);

  const usdcHash = await stranger.sendTransaction({
    to: config.localChain.usdc,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [address, 3_000_000n] }),
  });
  const ethHash = await stranger.sendTransaction({ to: address, value: parseEther('0.25') });
  const from = `From ${stranger.account.address.slice(0, 6)}…${stranger.account.address.slice(-4)}`;

  const items = await waitForEntries(page, 2);
  const eth = items.filter({ hasText: '+0.25 ETH' });
  const usdc = items.filter({ hasText: '+3 USDC' });
  for (const [item, hash] of [
    [eth, ethHash],
    [usdc, usdcHash],
  ] as const) {
    await expect(item).toContainText('Received');
    await expect(item).toContainText(from);
    await expect(item).toContainText('Local');
    await expect(item).toContainText('Confirmed · verified on-chain');
    await expect(item.locator('code')).toHaveText(hash);
  }
  // The local chain has no block explorer: no link, the hash to copy.
  await expect(items.getByRole('link', { name: /View on/ })).toHaveCount(0);
  await usdc.getByRole('button', { name: 'Copy hash' }).click();
  await expect(usdc.getByText('Copied', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(usdcHash);
  await snap(page, 'history-outside');

  const filter = page.getByLabel('Show activity on');
  await filter.selectOption({ label: 'Base' });
  await expect(page.getByText('No activity yet')).toBeVisible();
  await filter.selectOption({ label: 'Local' });
  await expect(items).toHaveCount(2);
  await filter.selectOption({ label: 'All networks' });
  await expect(items).toHaveCount(2);
});

test('test funds and a sandbox purchase appear in the history with their status and hash', async ({
  page,
}) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('history-credits'));
  await page.getByLabel('Network', { exact: true }).first().selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);

  const faucet = (await waitForEntries(page, 1)).first();
  await expect(faucet).toContainText('Test funds');
  await expect(faucet).toContainText('+1 ETH');
  await expect(faucet).toContainText('Confirmed · verified on-chain');
  await expect(faucet.locator('code')).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(faucet.getByRole('button', { name: 'Copy hash' })).toBeVisible();

  const addFunds = page.getByRole('region', { name: 'Add funds' });
  await addFunds.getByRole('button', { name: 'Buy', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Buy crypto' });
  // It opens on the network the wallet shows (Local): the sandbox credits the local chain.
  await panel.getByRole('button', { name: '10 USDC' }).click();
  const popupOpened = page.waitForEvent('popup');
  await panel.getByRole('button', { name: 'Continue to payment' }).click();
  const popup = await popupOpened;
  await popup.getByLabel('Card number').fill('4242 4242 4242 4242');
  await popup.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await popup.getByLabel('Security code (CVC)').fill('123');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Pay 10 USDC' }).click();
  await closed;
  await expect(panel.getByRole('status')).toHaveText(/The funds arrived/);
  await page.getByRole('button', { name: 'Done' }).click();

  const items = await waitForEntries(page, 2);
  const bought = items.first();
  await expect(bought).toContainText('Bought or deposited');
  await expect(bought).toContainText('+10 USDC');
  await expect(bought).toContainText('Confirmed · verified on-chain');
  await expect(bought.locator('code')).toHaveText(/^0x[0-9a-f]{64}$/);
  await expect(items.last()).toContainText('Test funds');
  await snap(page, 'history-credits');
});
