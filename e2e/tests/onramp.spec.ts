import { expect, type Page, test } from '@playwright/test';
import { signInWithEmail, snap, uniqueEmail } from './steps.js';

/** Opens Add funds → `entry`, picks the asset, network and amount, and continues into the popup. */
async function startPurchase(
  page: Page,
  entry: 'Buy' | 'Deposit from exchange',
  choice: { asset: string; network: string; preset: string },
  submit: string,
): Promise<Page> {
  const addFunds = page.getByRole('region', { name: 'Add funds' });
  await addFunds.getByRole('button', { name: entry, exact: true }).click();
  const panel = page.getByRole('region', { name: entry === 'Buy' ? 'Buy crypto' : 'Deposit from exchange' });
  await expect(panel.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(panel.getByText('Sandbox: credits test funds on the local chain.')).toBeVisible();
  await panel.getByLabel('Asset').selectOption(choice.asset);
  await panel.getByLabel('Network').selectOption({ label: choice.network });
  await panel.getByRole('button', { name: choice.preset }).click();
  await expect(panel.getByRole('button', { name: choice.preset })).toHaveAttribute('aria-pressed', 'true');
  const popupOpened = page.waitForEvent('popup');
  await panel.getByRole('button', { name: submit }).click();
  const popup = await popupOpened;
  await popup.waitForURL(/\/onramp\/sandbox\/buy\?/);
  return popup;
}

test('a new user buys 25 USDC by test card through the sandbox and sees 25 USDC in the wallet', async ({
  page,
}) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('onramp-buy'));
  await page.getByLabel('Network', { exact: true }).first().selectOption({ label: 'Local' });
  const usdc = page.getByLabel('USDC balance', { exact: true });
  await expect(usdc).toHaveText(/(^|[^\d.])0 USDC$/);

  const popup = await startPurchase(
    page,
    'Buy',
    { asset: 'USDC', network: 'Local (Base in the sandbox)', preset: '25 USDC' },
    'Continue to payment',
  );
  const url = new URL(popup.url());
  expect(url.searchParams.get('defaultPaymentMethod')).toBe('CARD');
  expect(url.searchParams.get('presetCryptoAmount')).toBe('25');
  await expect(popup.getByRole('heading', { name: 'Buy 25 USDC' })).toBeVisible();
  await expect(popup.getByText('Sandbox: credits test funds on the local chain.')).toBeVisible();
  await expect(popup.locator('dd', { hasText: 'Base (credited on the local chain)' })).toBeVisible();
  await expect(popup.locator('dd', { hasText: /^Card$/ })).toBeVisible();

  // A declined card first: an error, nothing charged, the form again.
  await popup.getByLabel('Card number').fill('4000 0000 0000 0002');
  await popup.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await popup.getByLabel('Security code (CVC)').fill('123');
  await popup.getByRole('button', { name: 'Pay 25 USDC' }).click();
  await expect(popup.getByRole('alert')).toContainText('declined');

  await popup.getByLabel('Card number').fill('4242 4242 4242 4242');
  await popup.getByLabel('Security code (CVC)').fill('123');
  await snap(popup, 'onramp-checkout');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Pay 25 USDC' }).click();
  await closed;

  const status = page.getByRole('region', { name: 'Buy crypto' }).getByRole('status');
  await expect(status).toHaveText('The funds arrived. Your balance on Local: 25 USDC.');
  await expect(usdc).toHaveText(/(^|[^\d.])25 USDC$/);
  await snap(page, 'onramp-bought');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('region', { name: 'Add funds' })).toBeVisible();
});

test('a deposit from an exchange account (send experience) credits native currency', async ({ page }) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('onramp-send'));
  await page.getByLabel('Network', { exact: true }).first().selectOption({ label: 'Local' });
  const balance = page.getByLabel('Balance', { exact: true });
  await expect(balance).toHaveText(/(^|[^\d.])0 ETH$/);

  const popup = await startPurchase(
    page,
    'Deposit from exchange',
    { asset: 'ETH', network: 'Local (Base in the sandbox)', preset: '0.05 ETH' },
    'Continue to deposit',
  );
  expect(new URL(popup.url()).searchParams.get('defaultPaymentMethod')).toBe('CRYPTO_ACCOUNT');
  expect(new URL(popup.url()).searchParams.get('defaultExperience')).toBe('send');
  await expect(popup.getByRole('heading', { name: 'Deposit 0.05 ETH' })).toBeVisible();
  await expect(popup.getByLabel('Sandbox exchange account (test balance)')).toBeChecked();
  await snap(popup, 'onramp-deposit-checkout');
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Send 0.05 ETH' }).click();
  await closed;

  const status = page.getByRole('region', { name: 'Deposit from exchange' }).getByRole('status');
  await expect(status).toHaveText('The funds arrived. Your balance on Local: 0.05 ETH.');
  await expect(balance).toHaveText(/(^|[^\d.])0\.05 ETH$/);
  await snap(page, 'onramp-deposited');

  // The form fits a 360 px wide screen.
  await page.getByRole('button', { name: 'Done' }).click();
  await page.setViewportSize({ width: 360, height: 740 });
  await page
    .getByRole('region', { name: 'Add funds' })
    .getByRole('button', { name: 'Buy', exact: true })
    .click();
  await expect(page.getByRole('button', { name: 'Continue to payment' })).toBeVisible();
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'onramp-buy-form-360');
});

test('with popups blocked, the payment page opens in a new tab and the wallet still sees the funds', async ({
  page,
  context,
}) => {
  // As a popup blocker does: window.open gives nothing.
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('onramp-tab'));
  await page.getByLabel('Network', { exact: true }).first().selectOption({ label: 'Local' });
  await page
    .getByRole('region', { name: 'Add funds' })
    .getByRole('button', { name: 'Buy', exact: true })
    .click();
  const panel = page.getByRole('region', { name: 'Buy crypto' });
  await panel.getByRole('button', { name: '10 USDC' }).click();
  await panel.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(panel.getByText('Your browser blocked the payment window.')).toBeVisible();
  const tabOpened = context.waitForEvent('page');
  await panel.getByRole('link', { name: 'Open the payment page' }).click();
  const tab = await tabOpened;
  await tab.waitForURL(/\/onramp\/sandbox\/buy\?/);
  await tab.getByLabel('Card number').fill('4242 4242 4242 4242');
  await tab.getByLabel('Expiry date (MM/YY)').fill('12/34');
  await tab.getByLabel('Security code (CVC)').fill('123');
  await tab.getByRole('button', { name: 'Pay 10 USDC' }).click();
  // The tab comes back to the app (no opener to report to), without the parameter.
  await tab.waitForURL((url) => url.pathname === '/' && url.search === '');
  await expect(panel.getByRole('status')).toHaveText('The funds arrived. Your balance on Local: 10 USDC.');
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])10 USDC$/);
});
