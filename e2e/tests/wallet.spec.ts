import { expect, test } from '@playwright/test';
import { signInWithEmail, snap, uniqueEmail } from './steps.js';

test('the network picker lists the five chains and Local, and test ETH shows up in the balance', async ({
  page,
}) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('grace'));

  const network = page.getByLabel('Network');
  const options = await network.locator('option').allTextContents();
  expect(options.map((option) => option.trim())).toEqual([
    'Polygon',
    'Arbitrum One',
    'Base',
    'Base Sepolia',
    'Zora',
    'Local',
  ]);
  await network.selectOption({ label: 'Local' });
  // Exact: "USDC balance" contains the word too.
  const balance = page.getByLabel('Balance', { exact: true });
  await expect(balance).toHaveText(/(^|[^\d.])0 ETH/);

  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(balance).toHaveText(/(^|[^\d.])1 ETH/);
  await snap(page, 'wallet-funded');
});

test('test USDC shows up in the USDC balance, and Receive shows the address as text and QR code', async ({
  page,
}) => {
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('hopper'));

  await page.getByLabel('Network').selectOption({ label: 'Local' });
  const usdc = page.getByLabel('USDC balance', { exact: true });
  await expect(usdc).toHaveText(/(^|[^\d.])0 USDC$/);
  await page.getByRole('button', { name: 'Get test USDC' }).click();
  await expect(usdc).toHaveText(/(^|[^\d.])100 USDC$/);
  // Minting USDC leaves the native balance alone.
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])0 ETH$/);

  const receive = page.getByRole('region', { name: 'Receive' });
  await expect(receive.getByRole('heading', { name: 'Receive' })).toBeVisible();
  await expect(receive.getByRole('img', { name: 'QR code of your wallet address' })).toBeVisible();
  await expect(receive.getByLabel('Wallet address', { exact: true })).toHaveText(address);
  await expect(receive.getByText('On Local', { exact: true })).toBeVisible();
  await expect(receive.getByRole('button', { name: 'Copy address' })).toBeVisible();
  await snap(page, 'wallet-receive');
  await page.setViewportSize({ width: 360, height: 740 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'wallet-receive-360');

  // On a chain without USDC the row says so, and Receive names that network.
  await page.getByLabel('Network').selectOption({ label: 'Zora' });
  await expect(usdc).toHaveText('USDC is not available on Zora');
  await expect(receive.getByText('On Zora', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Get test USDC' })).toHaveCount(0);
});

test('the wallet fits a 360 px wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  await snap(page, 'sign-in-360');
  await signInWithEmail(page, uniqueEmail('narrow'));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await snap(page, 'wallet-home-360');
});
