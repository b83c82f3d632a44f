import { expect, type Page, test } from '@playwright/test';
import { enterEmailCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

/** Someone else's wallet (a Hardhat test account): a valid recipient for any signed-in user. */
const OTHER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/** The app's screen, by its path and the tab's title; the screen's (first) heading has the focus. */
async function expectScreen(page: Page, path: string, heading: string, title: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.pathname === path);
  await expect(page.getByRole('heading', { name: heading, exact: true }).first()).toBeFocused();
  await expect(page).toHaveTitle(`${title} · Dial`);
}

/** Fills the send form: `amount` ETH to OTHER, and waits for the fee (the operator's on the local chain). */
async function fillSend(page: Page, amount: string): Promise<void> {
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill(OTHER);
  await page.getByLabel('Amount (ETH)').fill(amount);
  await expect(page.getByRole('status', { name: 'Network fee' })).toHaveText(/^Network fee: free, paid by /);
}

async function fundEth(page: Page): Promise<void> {
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);
}

test('Back and Forward move between the wallet, send, its review and receive, never out of the app', async ({
  page,
}) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('back-forward'));
  await fundEth(page);
  await expect(page).toHaveTitle('Your wallet · Dial');

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expectScreen(page, '/send', 'Send', 'Send');
  await fillSend(page, '0.1');
  await page.getByRole('button', { name: 'Review' }).click();
  await expectScreen(page, '/send/review', 'Check and confirm', 'Check and confirm');
  await expect(page.locator('.send-summary')).toContainText('0.1 ETH');

  // Back from the review: the form, as it was (it used to leave the app for about:blank).
  await page.goBack();
  await expectScreen(page, '/send', 'Send', 'Send');
  await expect(page.getByLabel('Recipient address')).toHaveValue(OTHER);
  await expect(page.getByLabel('Amount (ETH)')).toHaveValue('0.1');
  // Forward: the review again, of the same transfer.
  await page.goForward();
  await expectScreen(page, '/send/review', 'Check and confirm', 'Check and confirm');
  await expect(page.locator('.send-summary')).toContainText('0.1 ETH');
  await expect(page.locator('.send-summary')).toContainText(`${OTHER.slice(0, 6)}`);

  await page.goBack();
  await page.goBack();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');
  await page.goForward();
  await expectScreen(page, '/send', 'Send', 'Send');
  await expect(page.getByLabel('Amount (ETH)')).toHaveValue('0.1');
  await page.goBack();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');

  await page.getByRole('link', { name: 'Receive' }).click();
  await expectScreen(page, '/receive', 'Receive', 'Receive');
  await expect(page.getByRole('region', { name: 'Receive' }).getByText('On Local')).toBeVisible();
  await snap(page, 'navigation-receive');
  await page.goBack();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');
  await page.goForward();
  await expectScreen(page, '/receive', 'Receive', 'Receive');
  // The screen's own Back returns to the entry it came from, as the browser's does.
  await page.getByRole('button', { name: 'Back' }).click();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');
  await page.goForward();
  await expectScreen(page, '/receive', 'Receive', 'Receive');

  // Escape on the review goes back to the form, and the form's Back to the wallet, in the history too.
  await page.goBack();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByLabel('Amount (ETH)')).toHaveValue('');
  await fillSend(page, '0.2');
  await page.getByRole('button', { name: 'Review' }).click();
  await expectScreen(page, '/send/review', 'Check and confirm', 'Check and confirm');
  await page.keyboard.press('Escape');
  await expectScreen(page, '/send', 'Send', 'Send');
  await page.getByRole('button', { name: 'Back' }).click();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');
});

test('a reload keeps the send draft on /send and the screen on /receive; a finished send forgets the draft', async ({
  page,
}) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('reload'));
  await fundEth(page);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await fillSend(page, '0.25');
  await page.reload();
  await expectScreen(page, '/send', 'Send', 'Send');
  await expect(page.getByText('On Local', { exact: true })).toBeVisible();
  await expect(page.getByLabel('A wallet address')).toBeChecked();
  await expect(page.getByLabel('Recipient address')).toHaveValue(OTHER);
  await expect(page.getByLabel('Amount (ETH)')).toHaveValue('0.25');
  // Only the form: nothing secret is kept.
  const kept = await page.evaluate(() => JSON.stringify(sessionStorage));
  expect(kept).toContain('0.25');
  expect(kept).not.toMatch(/0x[0-9a-f]{64}/i);

  // A reload of the review shows the review again.
  await page.getByRole('button', { name: 'Review' }).click();
  await expectScreen(page, '/send/review', 'Check and confirm', 'Check and confirm');
  await page.reload();
  await expectScreen(page, '/send/review', 'Check and confirm', 'Check and confirm');
  await expect(page.locator('.send-summary')).toContainText('0.25 ETH');

  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText(/^Confirmed/, {
    timeout: 30_000,
  });
  await expect(page).toHaveTitle('Sent · Dial');
  expect(await page.evaluate(() => sessionStorage.getItem('dial.send-draft'))).toBeNull();
  await page.getByRole('button', { name: 'Done' }).click();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');

  await page.getByRole('link', { name: 'Receive' }).click();
  await expectScreen(page, '/receive', 'Receive', 'Receive');
  await page.reload();
  await expectScreen(page, '/receive', 'Receive', 'Receive');
  await expect(page.getByRole('region', { name: 'Receive' }).getByText('On Local')).toBeVisible();
  // Opened from a reload, the screen's Back still leads to the wallet.
  await page.getByRole('button', { name: 'Back' }).click();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');
});

test('a send link opens the form prefilled, checked as typed input is', async ({ page }) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('link'));

  await page.goto('/send?to=%2B447400123456&amount=0.1&asset=usdc');
  await expectScreen(page, '/send', 'Send', 'Send');
  // The link's values are in the form; the query is gone, so a reload keeps later edits.
  expect(new URL(page.url()).search).toBe('');
  await expect(page.getByLabel('A phone number')).toBeChecked();
  await expect(page.getByRole('textbox', { name: 'Phone number' })).toHaveValue('+44 7400 123456');
  await expect(page.getByLabel('Asset')).toHaveValue('usdc');
  await expect(page.getByLabel('Amount (USDC)')).toHaveValue('0.1');
  await snap(page, 'navigation-send-link');

  // Bad values are the form's usual errors.
  await page.goto('/send?to=%2B4412&amount=1,5');
  await expect(page.getByRole('heading', { name: 'Send', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Enter a valid phone number for United Kingdom.')).toBeVisible();
  await expect(
    page.getByText('Enter the amount in digits, with a point for decimals, like 12.5.'),
  ).toBeVisible();
  await page.goto(`/send?to=${OTHER.slice(0, 20)}&asset=dai&amount=5`);
  await expect(page.getByRole('heading', { name: 'Send', exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Recipient address')).toHaveValue(OTHER.slice(0, 20));
  await expect(
    page.getByText('An address starts with 0x followed by 40 letters and digits (0–9, a–f).'),
  ).toBeVisible();
  await expect(
    page.getByText('The link asks for an asset that cannot be sent on Local. Pick one below.'),
  ).toBeVisible();
  await expect(page.getByLabel('Amount (ETH)')).toHaveValue('');
});

test('a signed-out person opening a send link signs in and lands on the prefilled form', async ({ page }) => {
  await page.goto('/send?to=%2B447400123456&amount=0.1&asset=usdc');
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  await expect(page).toHaveTitle('Sign in · Dial');
  const email = uniqueEmail('link-signed-out');
  await enterEmailCode(page, email);

  await expect(page.getByRole('heading', { name: 'Send', exact: true })).toBeVisible({ timeout: 30_000 });
  await expectScreen(page, '/send', 'Send', 'Send');
  await expect(page.getByRole('textbox', { name: 'Phone number' })).toHaveValue('+44 7400 123456');
  await expect(page.getByLabel('Asset')).toHaveValue('usdc');
  await expect(page.getByLabel('Amount (USDC)')).toHaveValue('0.1');
  // The form's Back leads to the wallet (the link opened the app: there is no entry to go back to).
  await page.getByRole('button', { name: 'Back' }).click();
  await expectScreen(page, '/', 'Your wallet', 'Your wallet');
});
