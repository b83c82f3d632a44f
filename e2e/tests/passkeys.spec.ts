import { type BrowserContext, type CDPSession, expect, type Page, test } from '@playwright/test';
import {
  enterCodeAndOpenWallet,
  expectKeyboardFocus,
  expectNoSidewaysScroll,
  requestCode,
  snap,
  tabTo,
  uniqueUkMobile,
} from './steps.js';

// Passkeys in Chromium, with its virtual authenticator (CDP `WebAuthn`): a platform authenticator (internal
// transport) that holds discoverable credentials and verifies its user at once. WebAuthn works on
// http://localhost only (not 127.0.0.1), which is the base URL of playwright.config.ts. A second browser
// gets an authenticator of its own holding a copy of the first's credential (a synced passkey).

/**
 * Turns the passkey autofill off in a browser: the virtual authenticator answers a conditional request at
 * once (it needs no pick), which would sign in before a button could be tested. The last test keeps it on.
 */
async function withoutAutofill(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', {
      value: async () => false,
    });
  });
}

/** Adds a virtual authenticator to `page`'s browser; returns its CDP session and id. */
async function addAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  return { cdp, authenticatorId };
}

/** The passkeys an authenticator holds. */
async function credentialsOf(authenticator: { cdp: CDPSession; authenticatorId: string }) {
  const { credentials } = await authenticator.cdp.send('WebAuthn.getCredentials', {
    authenticatorId: authenticator.authenticatorId,
  });
  return credentials;
}

/** A second browser whose authenticator holds a copy of `from`'s passkeys, at the sign-in screen. */
async function browserWithCopies(
  newContext: () => Promise<BrowserContext>,
  from: { cdp: CDPSession; authenticatorId: string },
): Promise<Page> {
  const context = await newContext();
  await withoutAutofill(context);
  const page = await context.newPage();
  const copy = await addAuthenticator(context, page);
  for (const credential of await credentialsOf(from)) {
    await copy.cdp.send('WebAuthn.addCredential', { authenticatorId: copy.authenticatorId, credential });
  }
  await page.goto('/');
  return page;
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
}

const wallet = (page: Page) => page.getByRole('heading', { name: 'Your wallet' });

test('a passkey alone signs up and signs in, and its assertion proves a change in a browser without the wallet’s share', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  await withoutAutofill(context);
  const authenticator = await addAuthenticator(context, page);
  await page.goto('/');
  await expect(
    page.getByText("Sign in with your fingerprint, face or screen lock instead of a code; it can't be taken"),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Create an account with a passkey' }).click();
  await expect(wallet(page)).toBeVisible({ timeout: 30_000 });
  expect(await credentialsOf(authenticator)).toEqual([
    expect.objectContaining({ isResidentCredential: true }),
  ]);
  await snap(page, 'passkey-signed-up');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(wallet(page)).toBeVisible({ timeout: 30_000 });

  // The same passkey, synced to a second browser, signs in there: a browser without the wallet's key share.
  const second = await browserWithCopies(() => browser.newContext(), authenticator);
  await second.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // Signed in; the wallet cannot open here (no key share of it), which the screen says.
  await expect(second.getByRole('heading', { name: 'Your wallet is on another device' })).toBeVisible({
    timeout: 30_000,
  });
  await second.goto('/settings');
  await expect(second.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expect(second.getByRole('list', { name: 'Sign-in methods' })).toContainText('Passkey');
  // Ending the first browser's session needs the proof: the key cannot give it here, the passkey does.
  await second.getByRole('button', { name: 'End all other sessions' }).click();
  await expect(second.getByRole('status').filter({ hasText: /\S/ }).first()).toHaveText(
    '1 other session is ended.',
  );
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await snap(second, 'passkey-step-up');
});

test('a passkey linked in settings to a phone account signs in, and once removed signs in no more', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(180_000);
  await withoutAutofill(context);
  const authenticator = await addAuthenticator(context, page);
  await page.goto('/');
  const phone = uniqueUkMobile();
  await page.getByLabel('Phone number').fill(phone.national);
  const seen = await requestCode(page, phone.e164);
  await enterCodeAndOpenWallet(page, phone.e164, seen);
  await openSettings(page);

  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Add a passkey' })).toBeVisible();
  await expect(page.getByText("it can't be taken by someone who takes over your phone number")).toBeVisible();
  await page.getByLabel('Name (optional)').fill('Laptop');
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible({ timeout: 30_000 });
  const status = page.getByRole('status').filter({ hasText: /\S/ }).first();
  await expect(status).toHaveText('Laptop is linked: you can sign in with it.');
  const methods = page.getByRole('list', { name: 'Sign-in methods' });
  await expect(methods.getByRole('listitem')).toHaveCount(2);
  await expect(methods.getByRole('listitem').nth(1)).toContainText('PasskeyLaptop');
  await snap(page, 'passkey-linked');

  // It signs in to the phone's account from another browser.
  const second = await browserWithCopies(() => browser.newContext(), authenticator);
  await second.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // Signed in; the wallet cannot open here (no key share of it), which the screen says.
  await expect(second.getByRole('heading', { name: 'Your wallet is on another device' })).toBeVisible({
    timeout: 30_000,
  });
  await second.goto('/settings');
  await expect(second.getByRole('list', { name: 'Sign-in methods' })).toContainText('Laptop');

  // Removed (with the key's proof, from the browser holding the wallet): it signs in no more, and the
  // session it started is over.
  await page.getByRole('button', { name: 'Remove Laptop' }).click();
  await page.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(status).toHaveText('Laptop is removed: you can no longer sign in with it.');
  await expect(methods.getByRole('listitem')).toHaveCount(1);
  await second.goto('/');
  await expect(second.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await second.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(second.getByRole('alert')).toContainText('not a sign-in method of any Dial account');
});

test('the sign-in form offers passkeys in its autofill (conditional mediation on the field)', async ({
  page,
  context,
}) => {
  const authenticator = await addAuthenticator(context, page);
  await page.goto('/');
  await expect(page.getByLabel('Phone number')).toHaveAttribute('autocomplete', 'tel-national webauthn');
  await page.getByRole('button', { name: 'Create an account with a passkey' }).click();
  await expect(wallet(page)).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Sign out' }).click();
  // The page asks for a conditional assertion once the form shows; the virtual authenticator answers it at
  // once (it needs no pick), which signs in.
  await expect(wallet(page)).toBeVisible({ timeout: 30_000 });
  expect((await credentialsOf(authenticator))[0]?.signCount).toBeGreaterThan(1);
});

test.describe('on a small screen in German, by keyboard alone', () => {
  test.use({ viewport: { width: 360, height: 740 }, locale: 'de-DE' });

  test('the passkey buttons and "Add a passkey" keep the focus through a refusal', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    await withoutAutofill(context);
    await addAuthenticator(context, page);
    await page.goto('/');
    await expectNoSidewaysScroll(page);

    // The authenticator holds no passkey yet: the browser refuses, and the focus stays on the button
    // (not dropped to the page's start while it waited), ready for the next try.
    const signIn = page.getByRole('button', { name: 'Sign in with a passkey' });
    await tabTo(page, signIn);
    await expectKeyboardFocus(signIn);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toContainText('The passkey was not used');
    await expect(signIn).toBeFocused();
    await expectNoSidewaysScroll(page);
    await snap(page, 'layout-passkey-refused');

    const signUp = page.getByRole('button', { name: 'Create an account with a passkey' });
    await page.keyboard.press('Tab');
    await expectKeyboardFocus(signUp);
    await page.keyboard.press('Enter');
    await expect(wallet(page)).toBeVisible({ timeout: 30_000 });

    // Settings › Add a passkey: its heading takes the focus, its field is the next stop, Enter asks the
    // browser. This authenticator holds the account's passkey already, which the alert says; the focus stays
    // in the field (not dropped while the browser asked), and Cancel is a Tab away.
    await page.goto('/settings');
    const add = page.getByRole('button', { name: 'Add a passkey' });
    await tabTo(page, add);
    await expectKeyboardFocus(add);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Add a passkey' })).toBeFocused();
    await expectNoSidewaysScroll(page);
    const name = page.getByRole('textbox', { name: 'Name (optional)' });
    await page.keyboard.press('Tab');
    await expect(name).toBeFocused();
    await page.keyboard.type('Laptop');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('alert')).toHaveText('This device already holds a passkey of your account.');
    await expect(name).toBeFocused();
    await expect(name).toBeEditable();
    await expectNoSidewaysScroll(page);
    await snap(page, 'layout-add-passkey-refused');
    const create = page.getByRole('button', { name: 'Create passkey' });
    await page.keyboard.press('Tab');
    await expectKeyboardFocus(create);
    await page.keyboard.press('Tab');
    await expectKeyboardFocus(page.getByRole('button', { name: 'Cancel' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Settings' })).toBeFocused();
    await expectNoSidewaysScroll(page);
  });
});
