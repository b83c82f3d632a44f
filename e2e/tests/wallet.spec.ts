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
  const balance = page.getByLabel('Balance');
  await expect(balance).toHaveText(/(^|[^\d.])0 ETH/);

  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(balance).toHaveText(/(^|[^\d.])1 ETH/);
  await snap(page, 'wallet-funded');
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
