import { type Browser, expect, type Page, test } from '@playwright/test';
import { generatePrivateKey } from 'viem/accounts';
import { readCode } from './outbox.js';
import {
  enterCodeAndOpenWallet,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
  uniqueUkMobile,
} from './steps.js';
import { installTestWallet } from './testWallet.js';

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

/** Signs in with the test wallet from the sign-in screen and waits for the wallet home. */
async function signInWithTestWallet(page: Page): Promise<void> {
  await page.goto('/');
  const choices = page.getByRole('region', { name: 'Or continue with a wallet' });
  await choices.getByRole('button', { name: 'Test Wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
}

test('an account made with a browser wallet links a phone number; signing in with it reaches the same account', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const key = generatePrivateKey();
  const wallet = await installTestWallet(page, { key });
  await signInWithTestWallet(page);
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(wallet.address);
  await openSettings(page);
  const methods = page.getByRole('list', { name: 'Sign-in methods' });
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  await expect(methods.getByRole('listitem')).toContainText(`Wallet${wallet.address}`);

  const phone = uniqueUkMobile();
  await page.getByRole('button', { name: 'Add a phone number' }).click();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(phone.national);
  const seen = await requestCode(page, phone.e164);
  await page.getByLabel('Verification code').fill(await readCode(page.request, phone.e164, seen));
  await expect(methods.getByRole('listitem')).toHaveCount(2);
  await expect(methods.getByRole('listitem').nth(1)).toContainText(international(phone.national));
  // The account has no Dial wallet: its own wallet confirmed the link (a signature, asked in the wallet app).
  const signed = wallet.calls.filter((call) => call.method === 'personal_sign');
  expect(signed.map((call) => Buffer.from((call.params as [string])[0].slice(2), 'hex').toString())).toEqual([
    expect.stringContaining('wants you to sign in with your Ethereum account'),
    expect.stringMatching(/^Dial account change\n[\s\S]*\nAction: link-method\nTarget: phone:\+447400/),
  ]);
  await expect(methods.getByRole('listitem').nth(1)).not.toContainText('not confirmed by your wallet');

  // Another browser, with no wallet app: the phone number signs in to the same account and wallet (a
  // sign-in code, not held back by the link code just sent).
  const other = await (await browser.newContext()).newPage();
  await other.goto('/');
  await other.getByRole('textbox', { name: 'Phone number' }).fill(phone.national);
  const otherSeen = await requestCode(other, phone.e164);
  const address = await enterCodeAndOpenWallet(other, phone.e164, otherSeen);
  expect(address).toBe(wallet.address);
  await expect(other.getByText('This is your own wallet')).toBeVisible();

  // Two more tabs (the wallet app is in each, as an extension is) show the same two methods; the phone
  // number is removed in one of them, confirmed by the wallet.
  const second = await page.context().newPage();
  const third = await page.context().newPage();
  for (const tab of [second, third]) {
    await installTestWallet(tab, { key });
    await tab.goto('/settings');
    await expect(tab.getByRole('list', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(2);
  }
  const shown = international(phone.national);
  await second.getByRole('button', { name: `Remove ${shown}` }).click();
  await second
    .getByRole('group', { name: `Remove ${shown}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(second.getByRole('list', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(1);
  // The first tab, not yet refreshed, tries to remove the wallet: the server keeps the last method.
  await page.getByRole('button', { name: `Remove ${wallet.address}` }).click();
  await page
    .getByRole('group', { name: `Remove ${wallet.address}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(page.getByRole('alert')).toHaveText(
    'That is your only way to sign in, so it cannot be removed. Add another sign-in method first.',
  );
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  // The third tries to remove the phone number again: it is gone.
  await third.getByRole('button', { name: `Remove ${shown}` }).click();
  await third
    .getByRole('group', { name: `Remove ${shown}?` })
    .getByRole('button', { name: 'Remove' })
    .click();
  await expect(third.getByRole('alert')).toHaveText('That was not found.');
  await expect(third.getByRole('list', { name: 'Sign-in methods' }).getByRole('listitem')).toHaveCount(1);
});

test('links a browser wallet to an e-mail account: the wallet then signs in to that account', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const key = generatePrivateKey();
  const wallet = await installTestWallet(page, { key });
  const email = uniqueEmail('link-wallet');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  await openSettings(page);
  await page.getByRole('button', { name: 'Link a wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Link a wallet' })).toBeFocused();
  await page
    .getByRole('region', { name: 'Wallets in this browser' })
    .getByRole('button', { name: 'Test Wallet' })
    .click();
  const status = page.getByRole('status').filter({ hasText: /\S/ }).first();
  await expect(status).toHaveText(`${wallet.address} is linked: you can sign in with it.`);
  const methods = page.getByRole('list', { name: 'Sign-in methods' });
  await expect(methods.getByRole('listitem').nth(1)).toContainText(`Wallet${wallet.address}`);
  expect(wallet.calls.map((call) => call.method)).toEqual([
    'eth_requestAccounts',
    'eth_chainId',
    'personal_sign',
  ]);
  await snap(page, 'settings-wallet-linked');

  // The same wallet in another browser signs in to this account: its settings list the e-mail address.
  const other = await (await browser.newContext()).newPage();
  await installTestWallet(other, { key });
  await other.goto('/');
  await other
    .getByRole('region', { name: 'Or continue with a wallet' })
    .getByRole('button', { name: 'Test Wallet' })
    .click();
  // The account's wallet is still its Dial wallet, of which this browser holds no share: it is signed in
  // all the same, and its settings are the e-mail account's.
  await expect(other.getByRole('heading', { name: 'Sign in to Dial' })).toBeHidden({ timeout: 30_000 });
  await other.goto('/settings');
  await expect(other.getByRole('list', { name: 'Sign-in methods' })).toContainText(email);
  expect(address).not.toBe(wallet.address);
});

test('an account made with a browser wallet creates a Dial wallet, which becomes its wallet', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const wallet = await installTestWallet(page);
  await signInWithTestWallet(page);
  await openSettings(page);
  const offer = page.getByRole('region', { name: 'Dial wallet' });
  await expect(offer).toContainText('the one you send and receive with');
  await offer.getByRole('button', { name: 'Create a Dial wallet' }).click();

  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  const address = page.getByLabel('Wallet address', { exact: true });
  await expect(address).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(address).not.toHaveText(wallet.address);
  await expect(page.getByText('This is your own wallet')).toBeHidden();
  await openSettings(page);
  await expect(page.getByRole('region', { name: 'Dial wallet' })).toHaveCount(0);
});
