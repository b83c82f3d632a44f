import { expect, type Page, test } from '@playwright/test';
import { enterCodeAndOpenWallet, requestCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

/** A UK mobile number no other test uses (+44 7400 1xxxxx; the library refuses the 07700 900xxx range). */
function uniqueUkMobile(): { e164: string; national: string } {
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  return { e164: `+447400${1}${digits}`, national: `07400 1${digits}` };
}

async function fund(page: Page, asset: 'ETH' | 'USDC', expected: RegExp): Promise<void> {
  await page.getByRole('button', { name: `Get test ${asset}` }).click();
  const balance = page.getByLabel(asset === 'ETH' ? 'Balance' : 'USDC balance', { exact: true });
  await expect(balance).toHaveText(expected);
}

test('sends 5 USDC to a phone number; the recipient sees it in their balance and verified in activity', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // B signs in by phone first: the number is verified and B has a wallet.
  const recipient = uniqueUkMobile();
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await pageB.goto('/');
  await pageB.getByLabel('Phone number').fill(recipient.national);
  const seen = await requestCode(pageB, recipient.e164);
  const addressB = await enterCodeAndOpenWallet(pageB, recipient.e164, seen);
  await expect(pageB.getByText('No activity yet')).toBeVisible();

  await page.goto('/');
  const addressA = await signInWithEmail(page, uniqueEmail('sender'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await fund(page, 'ETH', /(^|[^\d.])1 ETH$/);
  await fund(page, 'USDC', /(^|[^\d.])100 USDC$/);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const heading = page.getByRole('heading', { name: 'Send', exact: true });
  await expect(heading).toBeFocused();
  await expect(page.getByText('On Local', { exact: true })).toBeVisible();
  await expect(page.getByLabel('A phone number')).toBeChecked();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(recipient.national);
  const masked = `*${recipient.e164.slice(-4)}`;
  const found = page.getByRole('status', { name: 'Recipient' });
  await expect(found).toHaveText(
    `Dial user ${masked} · wallet ${addressB.slice(0, 6)}…${addressB.slice(-4)}`,
  );

  await page.getByLabel('Asset').selectOption({ label: 'USDC' });
  await expect(page.getByText('Available: 100 USDC')).toBeVisible();
  // A bad amount says why.
  await page.getByLabel('Amount (USDC)').fill('1.1234567');
  await expect(page.getByText('USDC has at most 6 decimal places.')).toBeVisible();
  await page.getByLabel('Amount (USDC)').fill('5');
  await expect(page.getByRole('status', { name: 'Network fee' })).toHaveText(
    /Network fee: up to [\d.,<\s]+ETH/,
  );
  await snap(page, 'send-form');

  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  const summary = page.locator('.send-summary');
  await expect(summary).toContainText('+44 7400');
  await expect(summary).toContainText('Local');
  await expect(summary).toContainText('5 USDC');
  await expect(summary).toContainText(/Network fee\s*up to .*ETH/);
  await snap(page, 'send-confirm');

  await page.getByRole('button', { name: 'Confirm and send' }).click();
  const status = page.getByRole('status', { name: 'Transfer status' });
  await expect(status).toHaveText(/^Confirmed/, { timeout: 30_000 });
  // The local chain has no block explorer: the hash is shown instead of a link.
  await expect(page.getByLabel('Transaction hash')).toContainText(/0x[0-9a-f]{64}/);
  await expect(page.getByRole('link', { name: /View on/ })).toHaveCount(0);
  await snap(page, 'send-status');

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])95 USDC$/);
  const sent = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText('Sent');
  await expect(sent).toContainText('−5 USDC');
  await expect(sent).toContainText(`To ${masked}`);
  await expect(sent).toContainText('Local');
  await expect(sent).toContainText('Confirmed');

  // B sees the 5 USDC on Local and the transfer, checked on the chain.
  await pageB.reload();
  await expect(pageB.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await pageB.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(pageB.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])5 USDC$/);
  const received = pageB.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(received).toHaveCount(1);
  await expect(received).toContainText('Received');
  await expect(received).toContainText('+5 USDC');
  await expect(received).toContainText(`From ${addressA.slice(0, 6)}…${addressA.slice(-4)}`);
  await expect(received).toContainText('Confirmed · verified on-chain');
  await snap(pageB, 'activity-received');
  await contextB.close();
});

test('sending more than the balance shows the insufficient-balance message and sends nothing', async ({
  page,
}) => {
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('short'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await fund(page, 'ETH', /(^|[^\d.])1 ETH$/);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
  await page.getByLabel('Amount (ETH)').fill('2');
  const message = page.getByText(
    'Not enough funds to cover the amount and the network fee. Add funds or send less.',
  );
  await expect(message).toBeVisible();
  await snap(page, 'send-insufficient');
  await page.setViewportSize({ width: 360, height: 740 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'send-form-360');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toHaveCount(0);

  // Max leaves room for the fee: less than the whole balance, and then the message goes.
  await page.getByRole('button', { name: 'Max' }).click();
  const max = Number(await page.getByLabel('Amount (ETH)').inputValue());
  expect(max).toBeGreaterThan(0.99);
  expect(max).toBeLessThan(1);
  await expect(message).toHaveCount(0);

  // The balances are checked again on "Confirm and send": here they dropped after the review.
  await page.getByLabel('Amount (ETH)').fill('0.5');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  await setLocalBalance(page, address, 10n ** 17n);
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(message).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeVisible();
  await snap(page, 'send-insufficient-at-confirmation');

  // An unknown number says there is no Dial wallet for it.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByLabel('A phone number').check();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(uniqueUkMobile().national);
  await expect(page.getByRole('status', { name: 'Recipient' })).toHaveText(
    'No Dial user has verified that phone number, so there is no wallet to send to. Check the number.',
  );

  // Escape goes back to the wallet, where nothing was sent.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeFocused();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])0\.1 ETH$/);
  await expect(page.getByText('No activity yet')).toBeVisible();
});

/** Sets an account's ETH on the local chain (through the dev JSON-RPC route, from the page's origin). */
async function setLocalBalance(page: Page, address: string, wei: bigint): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'hardhat_setBalance',
    params: [address, `0x${wei.toString(16)}`],
  });
  const answer = await page.evaluate(async (text) => {
    const response = await fetch('/api/dev/chain', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: text,
    });
    return response.json();
  }, body);
  expect(answer).toMatchObject({ result: true });
}
