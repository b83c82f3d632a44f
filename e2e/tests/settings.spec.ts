import { type Browser, expect, type Page, test } from '@playwright/test';
import { readCode } from './outbox.js';
import { requestCode, signInWithEmail, snap, uniqueEmail, uniqueUkMobile } from './steps.js';

/** The server's wait between two codes to the same phone number or address, plus a margin. */
const RESEND_WAIT_MS = 31_000;
/** When the last code was asked for, by recipient: the next one waits out the resend cooldown. */
const lastCodeAt = new Map<string, number>();

async function waitForCooldown(page: Page, to: string): Promise<void> {
  const last = lastCodeAt.get(to);
  if (last !== undefined) await page.waitForTimeout(Math.max(0, last + RESEND_WAIT_MS - Date.now()));
  lastCodeAt.set(to, Date.now());
}

/** The international form the settings screen shows a UK mobile in: "+44 7400 1xxxxx". */
function international(national: string): string {
  return `+44 ${national.slice(1)}`;
}

/** Opens settings from the wallet home with the keyboard. */
async function openSettings(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
  await expect(page).toHaveURL(/\/settings$/);
}

/**
 * A new browser (its own cookies and storage) signed in to the account by one of its methods: an e-mail
 * address, or a UK mobile number (`national`, `e164`). Returns its page, past the code.
 */
async function signInElsewhere(
  browser: Browser,
  method: { email: string } | { national: string; e164: string },
): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto('/');
  let to: string;
  if ('email' in method) {
    to = method.email;
    await page.getByRole('tab', { name: 'Email' }).click();
    await page.getByRole('textbox', { name: 'Email address' }).fill(to);
  } else {
    to = method.e164;
    await page.getByRole('textbox', { name: 'Phone number' }).fill(method.national);
  }
  await waitForCooldown(page, to);
  const seen = await requestCode(page, to);
  await page.getByLabel('Verification code').fill(await readCode(page.request, to, seen));
  // This browser holds no share of the account's wallet: whatever it shows next, it is signed in.
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeHidden({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeHidden();
  return page;
}

/** Looks a phone number up on the send screen (a fresh one: the screen remembers its answers). */
async function lookUp(page: Page, national: string) {
  await page.goto('/send');
  await expect(page.getByLabel('A phone number')).toBeChecked();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(national);
  return page.getByRole('status', { name: 'Recipient' });
}

test('settings: links a phone number by code, turns findability off, ends other sessions, signs out everywhere', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('settings');
  await page.goto('/');
  lastCodeAt.set(email, Date.now());
  const address = await signInWithEmail(page, email);
  await openSettings(page);

  const methods = page.getByRole('list', { name: 'Sign-in methods' });
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  await expect(methods.getByRole('listitem')).toContainText(`Email address${email}`);
  await expect(page.getByText('1 of 5', { exact: true })).toBeVisible();
  // The only method cannot be removed, and the screen says why.
  const removeEmail = page.getByRole('button', { name: `Remove ${email}` });
  await expect(removeEmail).toHaveAttribute('aria-disabled', 'true');
  await expect(removeEmail).toHaveAccessibleDescription(/only way to sign in/);

  // Link a phone number with the code sent to it.
  const phone = uniqueUkMobile();
  await page.getByRole('button', { name: 'Add a phone number' }).click();
  await expect(page.getByRole('heading', { name: 'Add a phone number' })).toBeFocused();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(phone.national);
  lastCodeAt.set(phone.e164, Date.now());
  const seen = await requestCode(page, phone.e164);
  await page.getByLabel('Verification code').fill(await readCode(page.request, phone.e164, seen));
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: /\S/ }).first();
  await expect(status).toHaveText(`${international(phone.national)} is linked: you can sign in with it.`);
  await expect(methods.getByRole('listitem')).toHaveCount(2);
  await expect(methods.getByRole('listitem').nth(1)).toContainText(
    `Phone number${international(phone.national)}`,
  );
  await expect(page.getByText('2 of 5', { exact: true })).toBeVisible();
  await expect(removeEmail).not.toHaveAttribute('aria-disabled', 'true');
  const findable = page.getByRole('checkbox', { name: 'Let people send to me by this number' });
  await expect(findable).toBeChecked();
  await snap(page, 'settings-methods');

  // Another Dial user finds the number on the send screen…
  const sender = await (await browser.newContext()).newPage();
  await sender.goto('/');
  const senderEmail = uniqueEmail('finder');
  lastCodeAt.set(senderEmail, Date.now());
  await signInWithEmail(sender, senderEmail);
  const masked = `*${phone.e164.slice(-4)}`;
  await expect(await lookUp(sender, phone.national)).toHaveText(
    `Dial user ${masked} · wallet ${address.slice(0, 6)}…${address.slice(-4)}`,
  );
  // …until its owner turns that off.
  await findable.uncheck();
  await expect(status).toHaveText(`People can no longer find you by ${international(phone.national)}.`);
  await page.reload();
  await expect(findable).not.toBeChecked();
  await expect(await lookUp(sender, phone.national)).toHaveText(
    'No Dial user has verified that phone number, so there is no wallet to send to. Check the number.',
  );

  // Another account's e-mail address cannot be linked, even with the code sent to it.
  await page.getByRole('button', { name: 'Add an email address' }).click();
  await page.getByRole('textbox', { name: 'Email address' }).fill(senderEmail);
  await waitForCooldown(page, senderEmail);
  const seenBySender = await requestCode(page, senderEmail);
  await page.getByLabel('Verification code').fill(await readCode(page.request, senderEmail, seenBySender));
  await expect(page.getByRole('alert')).toHaveText(
    'That phone number, e-mail address or wallet is already a sign-in method of another Dial account.',
  );
  await page.getByRole('button', { name: 'Use a different email' }).click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
  await expect(methods.getByRole('listitem')).toHaveCount(2);

  // A second browser signs in to the same account: two sessions, this one marked.
  const other = await signInElsewhere(browser, { email });
  await page.reload();
  const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText('This browser');
  await expect(sessions.first()).toContainText('Signed in with an email address');
  await expect(sessions.nth(1)).not.toContainText('This browser');
  await snap(page, 'settings-sessions');

  // Ending it signs that browser out at its next request.
  await page.getByRole('button', { name: /^End the session on / }).click();
  await expect(status).toHaveText(/^The session on .+ is ended: it is signed out\.$/);
  await expect(sessions).toHaveCount(1);
  await other.reload();
  await expect(other.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();

  // Another browser; "End all other sessions" ends it.
  // (By the linked phone number: it signs in whether or not people may find the account by it.)
  const third = await signInElsewhere(browser, phone);
  await page.reload();
  await expect(sessions).toHaveCount(2);
  await page.getByRole('button', { name: 'End all other sessions' }).click();
  await expect(status).toHaveText('1 other session is ended.');
  await expect(sessions).toHaveCount(1);
  await third.reload();
  await expect(third.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();

  // Sign out everywhere: this browser and any other are back at sign-in.
  const fourth = await signInElsewhere(browser, { email });
  await page.reload();
  await expect(sessions).toHaveCount(2);
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await fourth.reload();
  await expect(fourth.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
});
