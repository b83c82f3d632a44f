import { expect, test } from '@playwright/test';
import { expectNotice, readCode, seenMessages } from './outbox.js';
import { requestCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

test('security notices and browsers: a sign-in elsewhere is shown at the owner’s next visit, read in settings, and that browser forgotten without a prompt', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('notices');
  await page.goto('/');
  await signInWithEmail(page, email);
  // A new account has nothing to read.
  await expect(page.getByText(/new security notice/)).toBeHidden();

  // Someone else signs in from another browser with a code sent to the owner's address.
  const seenNotices = await seenMessages(page.request, email);
  const other = await (await browser.newContext()).newPage();
  await other.goto('/');
  await other.getByRole('tab', { name: 'Email' }).click();
  await other.getByLabel('Email address').fill(email);
  const seen = await requestCode(other, email);
  await other.getByLabel('Verification code').fill(await readCode(other.request, email, seen));
  await expect(other.getByRole('heading', { name: 'Enter your code' })).toBeHidden({ timeout: 30_000 });
  await expectNotice(page.request, email, /new browser/, seenNotices);

  // The owner's next visit says so, and "Review" leads to the list, by keyboard.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  const banner = page.getByRole('region', { name: 'Security notices' });
  await expect(banner.getByText('1 new security notice')).toBeVisible();
  await snap(page, 'notices-banner');
  await banner.getByRole('link', { name: 'Review the security notices' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings#notices$/);
  await expect(page.getByRole('heading', { name: 'Security notices' })).toBeFocused();
  const notices = page.getByRole('list', { name: 'Security notices, newest first' });
  await expect(notices.getByRole('listitem')).toHaveCount(1);
  await expect(notices.getByRole('listitem').first()).toContainText(
    'Someone signed in to your account from a new browser',
  );
  await expect(notices.getByText('New', { exact: true })).toBeVisible();
  await snap(page, 'notices-list');

  // Opening the list marked it read: the wallet home no longer says so.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await expect(page.getByText(/new security notice/)).toBeHidden();

  // The browsers: this one, and the other; forgetting it is proved by this browser's key share (no prompt)
  // and signs it out.
  await page.getByRole('link', { name: 'Settings' }).click();
  const browsers = page.getByRole('list', { name: 'Browsers' });
  await expect(browsers.getByRole('listitem')).toHaveCount(2);
  await expect(browsers.getByRole('listitem').first()).toContainText('This browser');
  await expect(browsers.getByRole('listitem').nth(1)).toContainText('1 session');
  await snap(page, 'browsers-list');
  await browsers.getByRole('button', { name: /^Forget / }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'is forgotten: its session is ended' }),
  ).toBeVisible();
  await expect(browsers.getByRole('listitem')).toHaveCount(1);
  await snap(page, 'browsers-forgotten');

  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible({ timeout: 30_000 });
});
