import { expect, test } from '@playwright/test';
import { useUpFreeSends } from './database.js';
import {
  enterCodeAndOpenWallet,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
  uniqueUkMobile,
} from './steps.js';
import { localBalance } from './testWallet.js';

// Issue 29's new user: paid in USDC, no ETH at all, sends USDC to a friend's number. On the local chain the
// server sponsors fees (its DialPaymaster, the real bundler beside the chain), so the send is a user
// operation whose fee the operator pays, and the wallet's ETH stays 0.
test('a new user holding only USDC sends 10 USDC to a phone number, the fee paid by the operator; their ETH stays 0', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  // The friend signs in by phone first: the number is verified and has a wallet.
  const friend = uniqueUkMobile();
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await pageB.goto('/');
  await pageB.getByLabel('Phone number').fill(friend.national);
  const seen = await requestCode(pageB, friend.e164);
  const addressB = await enterCodeAndOpenWallet(pageB, friend.e164, seen);
  await pageB.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(pageB.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])0 USDC$/);

  await page.goto('/');
  const addressA = await signInWithEmail(page, uniqueEmail('usdc-only'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test USDC' }).click();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])100 USDC$/);
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])0 ETH$/);
  expect(await localBalance(addressA)).toBe(0n);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Send', exact: true })).toBeFocused();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(friend.national);
  await expect(page.getByRole('status', { name: 'Recipient' })).toContainText(
    `wallet ${addressB.slice(0, 6)}…${addressB.slice(-4)}`,
  );
  await page.getByLabel('Asset').selectOption({ label: 'USDC' });
  await expect(page.getByText('Available: 100 USDC')).toBeVisible();
  await page.getByLabel('Amount (USDC)').fill('10');
  // No ETH, and nothing says so: the operator pays the fee.
  await expect(page.getByRole('status', { name: 'Network fee' })).toHaveText(
    'Network fee: free, paid by localhost',
  );
  await expect(page.getByText(/Not enough|needs about/)).toHaveCount(0);
  // The whole balance can be sent: Max counts no fee.
  await page.getByRole('button', { name: 'Max' }).click();
  await expect(page.getByLabel('Amount (USDC)')).toHaveValue('100');
  await page.getByLabel('Amount (USDC)').fill('10');
  await snap(page, 'sponsored-send-form');

  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  const summary = page.locator('.send-summary');
  await expect(summary).toContainText('10 USDC');
  await expect(summary).toContainText(/Network fee\s*free, paid by localhost/);
  await snap(page, 'sponsored-send-confirm');

  await page.getByRole('button', { name: 'Confirm and send' }).click();
  const status = page.getByRole('status', { name: 'Transfer status' });
  await expect(status).toHaveText(/^Confirmed/, { timeout: 60_000 });
  await expect(page.getByLabel('Transaction hash')).toContainText(/0x[0-9a-f]{64}/);
  await snap(page, 'sponsored-send-status');

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])90 USDC$/);
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])0 ETH$/);
  expect(await localBalance(addressA)).toBe(0n);
  const sent = page
    .getByRole('list', { name: 'Transfers' })
    .getByRole('listitem')
    .filter({ hasText: 'Sent' });
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText('−10 USDC');
  await expect(sent).toContainText('Confirmed');

  // The friend's wallet received the 10 USDC (the live update, no reload).
  await expect(pageB.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])10 USDC$/, {
    timeout: 30_000,
  });
  await contextB.close();
});

test("with today's free sends used up and no ETH, sending USDC says the fee's ETH is missing, why the fee is not paid, and offers buying ETH (never sending less)", async ({
  page,
}) => {
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('used-up'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test USDC' }).click();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])100 USDC$/);
  useUpFreeSends(address);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
  await page.getByLabel('Asset').selectOption({ label: 'USDC' });
  await page.getByLabel('Amount (USDC)').fill('10');
  await expect(page.getByRole('status', { name: 'Network fee' })).toHaveText(
    /^Network fee: up to [\d.]+ ETH$/,
  );
  await expect(
    page.getByText(
      "You have used all of today's free sends. Send with ETH for the fee, or wait until tomorrow (UTC).",
    ),
  ).toBeVisible();
  const message = page.getByRole('alert').filter({ hasText: 'Sending USDC on Local' });
  await expect(message).toHaveText(
    /^Sending USDC on Local needs about [\d.]+ ETH for the network fee, and this wallet has none\.$/,
  );
  await expect(page.getByText(/send less/i)).toHaveCount(0);
  const offer = page.getByRole('region', { name: 'Add funds' });
  await expect(offer.getByText('Add ETH on Local, then try again.')).toBeVisible();
  await snap(page, 'sponsored-used-up');
  // Buying opens on ETH, the asset that is missing.
  await offer.getByRole('button', { name: 'Buy' }).click();
  await expect(page.getByRole('combobox', { name: 'Asset' }).last()).toHaveValue('ETH');
  expect(await localBalance(address)).toBe(0n);
});

test('when the paymaster refuses at send time (the free sends used up meanwhile), the review says why and offers paying the fee from the wallet, which then sends', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('refused'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);
  await page.getByRole('button', { name: 'Get test USDC' }).click();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])100 USDC$/);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
  await page.getByLabel('Asset').selectOption({ label: 'USDC' });
  await page.getByLabel('Amount (USDC)').fill('5');
  await expect(page.getByRole('status', { name: 'Network fee' })).toHaveText(
    'Network fee: free, paid by localhost',
  );
  await page.getByRole('button', { name: 'Review' }).click();
  const summary = page.locator('.send-summary');
  await expect(summary).toContainText(/Network fee\s*free, paid by localhost/);

  // Meanwhile the account's free sends for today are used up: the paymaster refuses this one.
  useUpFreeSends(address);
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    "You have used all of today's free sends. Send with ETH for the fee, or wait until tomorrow (UTC).",
  );
  const payYourself = page.getByRole('button', {
    name: /^Pay the fee from this wallet \(up to [\d.]+ ETH\)$/,
  });
  await expect(payYourself).toBeVisible();
  await snap(page, 'sponsored-refused');
  expect(await localBalance(address)).toBe(10n ** 18n);

  await payYourself.click();
  // The ETH fee with its dollar value (the sandbox's prices on the local chain).
  await expect(summary).toContainText(
    /Network fee\s*up to [\d.]+ ETH \((≈ \$[\d.]+|< \$0\.01)\), paid from this wallet/,
  );
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText(/^Confirmed/, {
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])95 USDC$/);
  // The fee came out of the wallet's ETH this time.
  expect(await localBalance(address)).toBeLessThan(10n ** 18n);
});
