import { expect, test } from '@playwright/test';
import { privateKeyToAddress } from 'viem/accounts';
import { expectNotice, readCode, seenMessages, wrongCode } from './outbox.js';
import { signInWithEmail, snap, uniqueEmail } from './steps.js';

test('export shows the private key of this wallet after a confirmation code, hidden until revealed', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const email = uniqueEmail('export');
  await page.goto('/');
  const address = await signInWithEmail(page, email);

  await page
    .getByRole('region', { name: 'Security' })
    .getByRole('button', { name: 'Export private key' })
    .click();
  await expect(page.getByRole('heading', { name: 'Export private key' })).toBeVisible();
  await expect(page.getByText('Anyone who has this key controls your wallet')).toBeVisible();
  // What the code is, said plainly: a confirmation that is recorded and notified, not a lock on the key.
  await expect(page.getByText('It does not lock your key away')).toBeVisible();
  await snap(page, 'export-warning');

  const seen = await seenMessages(page.request, email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  const code = await readCode(page.request, email, seen);
  const codeField = page.getByLabel('Confirmation code');
  await expect(codeField).toBeFocused();
  // A wrong code is refused and the field cleared.
  await codeField.fill(wrongCode(code));
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(codeField).toHaveValue('');
  await snap(page, 'export-wrong-code');
  // The export also carries the key's own proof, signed from this browser's device share with no prompt.
  const exportRequest = page.waitForRequest((request) => request.url().endsWith('/api/wallet/export'));
  await codeField.fill(code);
  const sent = await exportRequest;
  expect(sent.method()).toBe('POST');
  expect((sent.postDataJSON() as { proof: { address: string } }).proof.address).toBe(address);

  const keyBox = page.getByLabel('Private key', { exact: true });
  await expect(keyBox).toContainText('Hidden');
  await expect(keyBox).not.toContainText('0x');
  await snap(page, 'export-hidden');
  // The export was recorded and the owner told, by a notice to their own address.
  await expectNotice(page.request, email, /export/i, seen);
  await page.getByRole('button', { name: 'Reveal' }).click();
  const key = (await keyBox.textContent())?.trim() ?? '';
  expect(key).toMatch(/^0x[0-9a-f]{64}$/);
  expect(privateKeyToAddress(key as `0x${string}`)).toBe(address);
  // A copied key is wiped from the clipboard a minute later (the page's clock is run forward for it)…
  await page.clock.install();
  const copyButton = page.getByRole('button', { name: 'Copy private key' });
  await copyButton.click();
  const copied = page.getByRole('status').filter({ hasText: 'Copied. The clipboard is cleared in 1 minute' });
  await expect(copied).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.clock.runFor(59_000);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.clock.runFor(1_000);
  await expect(page.getByRole('status').filter({ hasText: 'The clipboard was cleared.' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('');
  // …or at once when the screen is left (below).
  await copyButton.click();
  await expect(copied).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  await page.setViewportSize({ width: 360, height: 740 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'export-revealed-360');

  // Leaving drops the key: coming back starts again at the warning.
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible();
  await expect(page.getByText(key)).toHaveCount(0);
  // …and wipes the copied key from the clipboard at once.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('');
  await page.getByRole('button', { name: 'Export private key' }).click();
  await expect(page.getByRole('button', { name: 'Send me a code' })).toBeVisible();
  await expect(page.getByLabel('Private key', { exact: true })).toHaveCount(0);
});
