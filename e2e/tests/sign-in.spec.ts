import { expect, type Request, test } from '@playwright/test';
import { messagesTo, readCode, seenMessages, wrongCode } from './outbox.js';
import {
  enterCodeAndOpenWallet,
  pickCountry,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
} from './steps.js';

test('a UK mobile number signs up, gets a wallet, and signing back in opens the same wallet', async ({
  page,
}) => {
  const e164 = '+447400123456';
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  await pickCountry(page, 'United Kingdom', /United Kingdom \+44/);
  await expect(page.getByRole('button', { name: /^Country/ })).toHaveAccessibleName(/United Kingdom|\+44/);
  await page.getByLabel('Phone number').fill('07400 123456');
  await snap(page, 'sign-in-phone-uk');

  const seen = await requestCode(page, e164);
  await expect(page.getByText(/\+44 7400 ?123456/)).toBeVisible();
  await snap(page, 'code-entry');
  const address = await enterCodeAndOpenWallet(page, e164, seen);
  await snap(page, 'wallet-home-new');

  // The server holds the same address and this browser as its one device: never the key, and no auth share
  // to a session that does not prove it is that device.
  const wallet = await (await page.request.get('/api/wallet')).json();
  expect(wallet).toMatchObject({ address, devices: 1, legacyAuthShare: null });
  expect(wallet).not.toHaveProperty('authShare');
  expect(wallet).not.toHaveProperty('privateKey');

  // The device's held share and secret are kept under a non-extractable AES-GCM key in IndexedDB.
  const keys = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('dial');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const all = await new Promise<unknown[]>((resolve, reject) => {
      const request = db.transaction('keys').objectStore('keys').getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    return all.map((key) =>
      key instanceof CryptoKey ? { algorithm: key.algorithm.name, extractable: key.extractable } : null,
    );
  });
  expect(keys).toEqual([{ algorithm: 'AES-GCM', extractable: false }]);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  expect((await page.request.get('/api/me')).status()).toBe(401);

  // Signing back in: pasting the international form picks the country by itself.
  await page.getByRole('tab', { name: 'Phone' }).click();
  await page.getByLabel('Phone number').fill('+44 7400 123456');
  await expect(page.getByRole('button', { name: /^Country/ })).toHaveAccessibleName(/United Kingdom|\+44/);
  const seenAgain = await requestCode(page, e164);
  // The wallet opens once: the opening the app starts as the code is accepted (before the wallet screen
  // renders) is the one the screen shows, not a second unlock of the device beside it.
  const walletReads: string[] = [];
  const onRequest = (request: Request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/api/wallet' || /^\/api\/wallet\/devices\/[^/]+\/unlock$/.test(path)) {
      walletReads.push(`${request.method()} ${path}`);
    }
  };
  page.on('request', onRequest);
  const sameAddress = await enterCodeAndOpenWallet(page, e164, seenAgain);
  expect(sameAddress).toBe(address);
  expect(walletReads).toEqual([expect.stringMatching(/^POST \/api\/wallet\/devices\/[^/]+\/unlock$/)]);

  // A return visit, still signed in: the same, with the opening started as the page starts.
  await page.reload();
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(address);
  page.off('request', onRequest);
  expect(walletReads).toHaveLength(2);
  await snap(page, 'wallet-home-returning');
});

test('an e-mail address signs up and gets a wallet', async ({ page }) => {
  const email = uniqueEmail('ada');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  const me = await (await page.request.get('/api/me')).json();
  expect(me.user.email).toBe(email);
  await snap(page, 'wallet-home-email');
});

test('five wrong codes kill the code, so even the right one no longer works', async ({ page }) => {
  const email = uniqueEmail('mallory');
  await page.goto('/');
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  const seen = await requestCode(page, email);
  const code = await readCode(page.request, email, seen);
  const field = page.getByLabel('Verification code');

  for (let attempt = 1; attempt <= 4; attempt++) {
    await field.fill(wrongCode(code, attempt));
    await expect(page.getByRole('alert')).toContainText('That code is not right');
  }
  await field.fill(wrongCode(code, 5));
  await expect(page.getByRole('alert')).toContainText('Too many wrong codes');
  await snap(page, 'code-killed');

  await field.fill(code);
  await expect(page.getByRole('alert')).toContainText('Too many wrong codes');
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toHaveCount(0);
  expect((await page.request.get('/api/me')).status()).toBe(401);
});

test('an invalid phone number gets an inline message and nothing is sent', async ({ page }) => {
  await page.goto('/');
  await pickCountry(page, 'United Kingdom', /United Kingdom \+44/);
  const before = await seenMessages(page.request, '+44123');
  await page.getByLabel('Phone number').fill('123');
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('alert')).toContainText('valid phone number');
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  expect(await messagesTo(page.request, '+44123')).toHaveLength(before.length);
  await snap(page, 'sign-in-invalid-phone');
});

test('the country picker works from the keyboard and searches by calling code', async ({ page }) => {
  await page.goto('/');
  const picker = page.getByRole('button', { name: /^Country/ });
  await picker.focus();
  await page.keyboard.press('Enter');
  const search = page.getByLabel('Search countries');
  await expect(search).toBeFocused();
  await search.fill('+49');
  await expect(page.getByRole('option', { name: /Germany \+49/ })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(picker).toHaveAccessibleName(/Germany|\+49/);
  await expect(picker).toBeFocused();
  await expect(page.getByLabel('Phone number')).toHaveAttribute('placeholder', /\d/);
});

test('after strangers spent an address’s free codes, a new browser solves a proof of work and still signs in', async ({
  page,
  playwright,
  baseURL,
}) => {
  const email = uniqueEmail('flooded');
  const start = { data: { channel: 'email', to: email } };
  // Three strangers (each its own cookie jar: a browser the address never signed in from) take the free codes.
  for (let stranger = 0; stranger < 3; stranger++) {
    const client = await playwright.request.newContext({ baseURL });
    expect((await client.post('/api/auth/otp/start', start)).status()).toBe(200);
    await client.dispose();
  }
  const fourth = await playwright.request.newContext({ baseURL });
  const refused = await fourth.post('/api/auth/otp/start', start);
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.code).toBe('proof_of_work_required');
  await fourth.dispose();

  // The owner, on a new browser, is asked for the proof too: the page solves it and the code is sent.
  const answers: number[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('/api/auth/otp/start')) answers.push(response.status());
  });
  await page.goto('/');
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  const seen = await requestCode(page, email);
  expect(answers).toEqual([403, 200]);
  await snap(page, 'code-entry-after-proof-of-work');
  await enterCodeAndOpenWallet(page, email, seen);
});
