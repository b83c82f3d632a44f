import { expect, test } from '@playwright/test';
import { createWalletClient, defineChain, http, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import {
  enterCodeAndOpenWallet,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
  uniqueUkMobile,
} from './steps.js';
import { LOCAL_CHAIN_ID, setLocalBalance } from './testWallet.js';

// Issue 11 §1: money shows up by itself on an open page, without a reload or pressing Refresh. A Dial
// transfer arrives through the server's live stream (GET /api/events) with a polite announcement; money from
// outside Dial through the balance's own checks of the chain while the page is visible.

const localChain = defineChain({
  id: LOCAL_CHAIN_ID,
  name: 'Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [`http://127.0.0.1:${process.env.E2E_CHAIN_PORT ?? '8646'}`] } },
});

test('a transfer from another Dial user appears on the open page of its recipient, balance and announcement, within seconds', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const recipient = uniqueUkMobile();
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await pageB.goto('/');
  await pageB.getByLabel('Phone number').fill(recipient.national);
  const seen = await requestCode(pageB, recipient.e164);
  await enterCodeAndOpenWallet(pageB, recipient.e164, seen);
  await pageB.getByLabel('Network').selectOption({ label: 'Local' });
  const balanceB = pageB.getByLabel('Balance', { exact: true });
  await expect(balanceB).toHaveText(/(^|[^\d.])0 ETH$/);

  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('live-sender'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A phone number').check();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(recipient.national);
  await expect(page.getByRole('status', { name: 'Recipient' })).toHaveText(/Dial user/);
  await page.getByLabel('Amount (ETH)').fill('0.005');
  await page.getByRole('button', { name: 'Review' }).click();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText(/^Confirmed/, {
    timeout: 30_000,
  });

  // B did nothing: no reload, no Refresh. The server pushed the settled transfer to B's page.
  const announcement = pageB.getByRole('status').filter({ hasText: 'Received 0.005 ETH on Local' });
  await expect(announcement).toBeVisible({ timeout: 10_000 });
  await expect(announcement).toHaveAttribute('aria-live', 'polite');
  await expect(balanceB).toHaveText(/(^|[^\d.])0\.005 ETH$/, { timeout: 10_000 });
  await snap(pageB, 'live-received');
  await contextB.close();
});

test('money sent to the wallet from outside Dial shows in the balance of the open page by itself', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('live-outside'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  const balance = page.getByLabel('Balance', { exact: true });
  await expect(balance).toHaveText(/(^|[^\d.])0 ETH$/);

  // A plain local-chain account, nothing to do with Dial, sends 0.25 ETH to the wallet.
  const outsider = privateKeyToAccount(generatePrivateKey());
  await setLocalBalance(outsider.address, parseEther('1'));
  const wallet = createWalletClient({ account: outsider, chain: localChain, transport: http() });
  await wallet.sendTransaction({ to: address as `0x${string}`, value: parseEther('0.25') });

  // Nothing pressed, nothing reloaded.
  await expect(balance).toHaveText(/(^|[^\d.])0\.25 ETH$/, { timeout: 30_000 });
});
