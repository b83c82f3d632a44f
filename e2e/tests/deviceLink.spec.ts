import { expect, type Page, test } from '@playwright/test';
import { messagesTo } from './outbox.js';
import { enterEmailCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

/** The confirmation words a screen shows, in order. */
async function wordsOn(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Confirmation words' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  return (await list.getByRole('listitem').allTextContents()).map((word) => word.trim());
}

/** Opens Settings › Devices from the wallet home and returns the Devices section. */
async function openDevices(page: Page) {
  await page.goto('/settings');
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices.getByRole('list', { name: 'Devices' })).toBeVisible();
  return devices;
}

test('a browser added by QR code opens the wallet with no password, and once removed it opens nothing', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('link');
  await page.goto('/');
  const address = await signInWithEmail(page, email);

  // The first browser starts adding a device: a QR code and a code, 5 minutes.
  let devices = await openDevices(page);
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(devices.getByRole('listitem').first()).toContainText('This device');
  await devices.getByRole('button', { name: 'Add a device' }).click();
  await expect(page.getByRole('heading', { name: 'Add a device' })).toBeVisible();
  const code = (await page.locator('.link-code').textContent())?.replace('Code:', '').trim() ?? '';
  expect(code).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  await expect(page.getByRole('img', { name: `QR code to add a device, code ${code}` })).toBeVisible();
  await expect(page.getByRole('timer')).toHaveText(/^Expires in [45]:\d\d$/);
  await snap(page, 'add-device-code');

  // The QR code opens /link with the code on a new browser that is not signed in: it signs in through the
  // link (to the same account) and lands on the code page with the code filled in.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await other.goto(`/link?code=${code.replace('-', '')}`);
  await enterEmailCode(other, email);
  await expect(other.getByRole('heading', { name: 'Open your wallet on this device' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(other.getByLabel('Code from your other device')).toHaveValue(code.replace('-', ''));
  await other.getByRole('button', { name: 'Continue' }).click();
  const wordsThere = await wordsOn(other);
  await expect(other.getByRole('status')).toHaveText('Waiting for your other device…');
  await snap(other, 'link-device-words');

  // Both show the same words; the old browser names the new one, and confirms.
  await expect(page.getByRole('status')).toHaveText(/^.+ entered the code\.$/);
  await expect(page.getByText('Check that it shows these words, in this order:')).toBeVisible();
  expect(await wordsOn(page)).toEqual(wordsThere);
  await snap(page, 'add-device-compare');
  await page.getByRole('button', { name: 'The words match: add it' }).click();
  await expect(page.getByRole('status')).toContainText('can now open your wallet');

  // The new browser opens the share sealed for it, and the wallet: no password was asked.
  await expect(other.getByRole('status')).toContainText('This device can now open your wallet', {
    timeout: 15_000,
  });
  await other.getByRole('button', { name: 'Open my wallet' }).click();
  await expect(other.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(other.getByLabel('Wallet address', { exact: true })).toHaveText(address);
  // The first browser still opens it too: adding a device locks no one out.
  await page.goto('/');
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(address);

  // The owner is told of the new device on every method (here, the one e-mail address).
  await expect
    .poll(async () => (await messagesTo(page.request, email)).map((message) => message.text).join('\n'))
    .toMatch(/device/i);

  // The first browser removes the second (it holds the key, so at once): that browser can open nothing.
  devices = await openDevices(page);
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  const added = devices.getByRole('listitem').filter({ hasNotText: 'This device' });
  await added.getByRole('button', { name: /^Remove / }).click();
  await expect(page.getByRole('status').first()).toContainText('can no longer open your wallet');
  await expect(devices.getByRole('listitem')).toHaveCount(1);

  // Its open page hears at once (the live stream) and says so, in place of the wallet.
  await expect(other.getByText(/removed from your wallet/)).toBeVisible({ timeout: 30_000 });
  await expect(other.getByRole('heading', { name: 'Your wallet', exact: true })).toHaveCount(0);
  await snap(other, 'removed-device');
  // Opened again, it is a browser like any other that is not a device of the wallet.
  await other.goto('/');
  await expect(other.getByRole('heading', { name: 'Your wallet is on another device' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(other.getByRole('button', { name: 'Enter a code from my other device' })).toBeVisible();
  await otherContext.close();
});

test('a link code that is wrong, or used already, is refused with what to do', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('link-code');
  await page.goto('/');
  await signInWithEmail(page, email);
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await other.goto('/');
  await enterEmailCode(other, email);

  await other.goto('/link');
  const input = other.getByLabel('Code from your other device');
  await input.fill('ACDE-FGH');
  await other.getByRole('button', { name: 'Continue' }).click();
  await expect(other.getByRole('alert')).toContainText('A link code is 8 letters and digits');
  await input.fill('ACDE-FGHJ');
  await input.press('Enter');
  await expect(other.getByRole('alert')).toContainText('codes last 5 minutes and work once');
  await expect(input).toHaveAttribute('aria-invalid', 'true');

  // Cancelled on the old browser: the new one is told nothing was shared.
  await openDevices(page);
  await page.getByRole('button', { name: 'Add a device' }).click();
  const code = (await page.locator('.link-code').textContent())?.replace('Code:', '').trim() ?? '';
  await input.fill(code);
  await other.getByRole('button', { name: 'Continue' }).click();
  await wordsOn(other);
  await expect(page.getByRole('button', { name: 'They differ: cancel' })).toBeVisible();
  await page.getByRole('button', { name: 'They differ: cancel' }).click();
  await expect(page.getByText('Cancelled. Nothing was shared.')).toBeVisible();
  await expect(other.getByText('This device was not added.')).toBeVisible({ timeout: 15_000 });
  await otherContext.close();
});
