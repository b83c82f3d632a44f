import { expect, type Page, test } from '@playwright/test';
import { expectNotice, readCode, seenMessages } from './outbox.js';
import { enterCodeAndOpenWallet, requestCode, snap, uniqueEmail, uniqueUkMobile } from './steps.js';

/** The server's wait between two codes to the same phone number, plus a margin. */
const RESEND_WAIT_MS = 31_000;

/** The status line of the settings screen (the first one with text). */
function statusLine(page: Page) {
  return page.getByRole('status').filter({ hasText: /\S/ }).first();
}

test('an owner whose session was stolen proves the key without a prompt, sees what the thief asked for and secures the account', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const phone = uniqueUkMobile();
  const thiefEmail = uniqueEmail('thief');

  // The owner signs in with their phone: the wallet is made in this browser, which keeps its device share.
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(phone.national);
  const ownerCodeAt = Date.now();
  const address = await enterCodeAndOpenWallet(page, phone.e164, await requestCode(page, phone.e164));
  await expect(page.getByRole('region', { name: /changes? to your account (is|are) waiting/i })).toHaveCount(
    0,
  );

  // A thief who reads the owner's next code (a SIM swap) signs in from their own browser…
  const thief = await (await browser.newContext()).newPage();
  await thief.goto('/');
  await thief.getByRole('textbox', { name: 'Phone number' }).fill(phone.national);
  await thief.waitForTimeout(Math.max(0, ownerCodeAt + RESEND_WAIT_MS - Date.now()));
  const seen = await requestCode(thief, phone.e164);
  await thief.getByLabel('Verification code').fill(await readCode(thief.request, phone.e164, seen));
  // It holds no share of the owner's wallet, so the wallet does not open there; settings do.
  await expect(thief.getByRole('heading', { name: 'Enter your code' })).toBeHidden({ timeout: 30_000 });
  await thief.goto('/settings');
  await expect(thief.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const noticesBefore = await seenMessages(page.request, phone.e164);

  // …links their own e-mail address with a code sent to it: only asked for, it waits…
  await thief.getByRole('button', { name: 'Add an email address' }).click();
  await thief.getByRole('textbox', { name: 'Email address' }).fill(thiefEmail);
  const thiefSeen = await requestCode(thief, thiefEmail);
  await thief.getByLabel('Verification code').fill(await readCode(thief.request, thiefEmail, thiefSeen));
  await expect(thief.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(statusLine(thief)).toHaveText(
    new RegExp(
      `^Asked: Link the e-mail address ${thiefEmail.replaceAll('.', '\\.')}\\. It will be linked on .+ unless it is cancelled\\. Every sign-in method of the account was told\\. This browser does not hold your wallet's key share, so it could not confirm it\\.$`,
    ),
  );
  const thiefMethods = thief.getByRole('list', { name: 'Sign-in methods' });
  await expect(thiefMethods.getByRole('listitem')).toHaveCount(1);
  await snap(thief, 'takeover-thief-asked');

  // …and asks to end the owner's session: that waits too.
  await thief.getByRole('button', { name: 'End all other sessions' }).click();
  await expect(statusLine(thief)).toHaveText(
    /^Asked: End every other session\. The sessions will be ended on .+ unless it is cancelled\./,
  );
  await expectNotice(page.request, phone.e164, /someone asked to change your account/i, noticesBefore);

  // The owner comes back: the wallet home says a change they did not ask for is waiting, and the notices.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  const warning = page.getByRole('region', { name: 'Changes to your account are waiting' });
  await expect(warning).toContainText(`Link the e-mail address ${thiefEmail}`);
  await expect(warning).toContainText('End every other session');
  await expect(page.getByRole('region', { name: 'Security notices' })).toContainText(/new security notices?/);
  await snap(page, 'takeover-owner-warned');
  await warning.getByRole('link', { name: 'Review and secure my account' }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const pending = page.getByRole('list', { name: 'Pending changes' });
  await expect(pending.getByRole('listitem')).toHaveCount(2);
  const link = pending.getByRole('listitem').filter({ hasText: thiefEmail });
  await expect(link).toContainText(/Asked from .+ on /);
  await expect(link).toContainText(/Happens on .+ unless it is cancelled/);
  await expect(page.getByRole('list', { name: 'Security notices, newest first' })).toContainText(
    'Someone asked to change your account without your wallet’s confirmation',
  );
  await snap(page, 'takeover-owner-pending');

  // "Secure my account": the proof comes from this browser's device share (no wallet app is asked: there is
  // none here), signed by the owner's wallet key.
  const secured = page.waitForRequest((request) => request.url().endsWith('/api/account/secure'));
  await page.getByRole('button', { name: 'Secure my account' }).click();
  const proof = (await secured).postDataJSON() as { proof: { address: string } };
  expect(proof.proof.address).toBe(address);
  await expect(page.getByRole('status').filter({ hasText: 'Your account is secure' })).toHaveText(
    'Your account is secure: 1 other session ended, 2 pending changes cancelled and 1 other browser forgotten.',
  );
  await expect(page.getByText('No change to your account is waiting.')).toBeVisible();
  const settled = page.getByRole('list', { name: 'Settled changes' }).getByRole('listitem');
  await expect(settled).toHaveCount(2);
  for (const item of await settled.all()) await expect(item).toContainText(/Cancelled on /);
  await expect(page.getByRole('list', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Sessions' }).getByRole('listitem')).toHaveCount(1);
  await snap(page, 'takeover-owner-secured');

  // The thief's session is refused: back at sign-in.
  await thief.reload();
  await expect(thief.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();

  // The wallet home no longer warns.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await expect(page.getByRole('region', { name: /changes? to your account (is|are) waiting/i })).toHaveCount(
    0,
  );
});
