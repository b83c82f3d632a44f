import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { makeLegacyWallet, readDevices } from './database.js';
import { enterEmailCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

// Issue 28, point 1: one wallet on several browsers, each a device with a split of the key of its own, so
// that recovering (or adding) one never locks out another.

const PASSWORD = 'plum orchard lantern 42';
const RECIPIENT = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

/** Counts the page's requests that touch recovery (the record, an OPRF evaluation, a failure) from now on. */
function countRecoveryRequests(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/wallet/recovery')) count += 1;
  });
  return () => count;
}

/** Opens the wallet afresh (a switch back to this browser) and sends `amount` ETH on Local, to confirmed. */
async function openAndSend(page: Page, amount: string): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByLabel('Network', { exact: true }).first().selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill(RECIPIENT);
  await page.getByLabel('Amount (ETH)').fill(amount);
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText(/^Confirmed/, {
    timeout: 30_000,
  });
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toHaveCount(0);
}

test('a wallet used alternately in two browsers with no password between switches', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  const email = uniqueEmail('twodevices');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  await page.getByLabel('Network', { exact: true }).first().selectOption({ label: 'Local' });
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);

  // Browser A sets up recovery; the screen says what each device and the password are for.
  const security = page.getByRole('region', { name: 'Security', exact: true });
  await security.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(
    page.getByText(
      'Your wallet opens on each device you add. The recovery password is for when you have none of them: a new phone, a wiped browser.',
      { exact: false },
    ),
  ).toBeVisible();
  await page.getByLabel('Recovery password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm recovery password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(security.getByRole('status')).toHaveText(/^Recovery is set up\./, { timeout: 60_000 });

  // Browser B recovers once with the password: it becomes one more device of the wallet.
  const contextB: BrowserContext = await browser.newContext();
  try {
    const pageB = await contextB.newPage();
    await pageB.goto('/');
    await enterEmailCode(pageB, email);
    await expect(pageB.getByRole('heading', { name: 'Recover your wallet' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(
      pageB.getByText('This browser is not one of the devices your wallet opens on.'),
    ).toBeVisible();
    await snap(pageB, 'devices-recover-here');
    await pageB.getByLabel('Recovery password').fill(PASSWORD);
    await pageB.getByRole('button', { name: 'Recover wallet' }).click();
    await expect(pageB.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
      timeout: 60_000,
    });
    await expect(pageB.getByLabel('Wallet address', { exact: true })).toHaveText(address);

    // From now on no password, and nothing of recovery, is asked for in either browser.
    const recoveryA = countRecoveryRequests(page);
    const recoveryB = countRecoveryRequests(pageB);
    await openAndSend(page, '0.01');
    await openAndSend(pageB, '0.02');
    await openAndSend(page, '0.03');
    await snap(page, 'devices-alternate-a');
    expect(recoveryA()).toBe(0);
    expect(recoveryB()).toBe(0);

    // Both are devices of the wallet, each marked in its own Settings › Devices.
    await page.goto('/settings');
    const devices = page.getByRole('region', { name: 'Devices' });
    await expect(devices.getByRole('list', { name: 'Devices' }).getByRole('listitem')).toHaveCount(2);
    await snap(page, 'devices-two');
  } finally {
    await contextB.close();
  }
});

test('without recovery, a new browser is told where its wallet opens and how to add this one', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('devices-norecovery');
  await page.goto('/');
  await signInWithEmail(page, email);
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto('/');
    await enterEmailCode(other, email);
    await expect(other.getByRole('heading', { name: 'Your wallet is on another device' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(other.getByText('add this browser from one of them')).toBeVisible();
    await expect(other.getByText('Settings › Devices › Add a device')).toBeVisible();
    // Never the old "keys changed" lock-out, and no password field: there is no recovery to use.
    await expect(other.getByText(/keys were changed/)).toHaveCount(0);
    await expect(other.getByLabel('Recovery password')).toHaveCount(0);
    await snap(other, 'devices-no-recovery');
    // The way forward is one press away: the page where this browser enters the other device's code.
    await other.getByRole('button', { name: 'Enter a code from my other device' }).click();
    await expect(other.getByRole('heading', { name: 'Open your wallet on this device' })).toBeVisible();
    await expect(other).toHaveURL(/\/link$/);
  } finally {
    await fresh.close();
  }
});

test('a browser holding the share of a wallet registered before devices adopts it as its device, and its old entries go', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('adopt'));

  // The server goes back to the wallet's state before devices, with this browser's split as its one split,
  // and this browser's store to what the app kept then: the device share of that split, in store `shares`.
  const { userId, deviceId } = makeLegacyWallet(address);
  const before = await page.evaluate(
    async ({ userId, deviceId, address }) => {
      const result = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('dial');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const key = (await result(
        db.transaction('keys').objectStore('keys').get('device-share-key'),
      )) as CryptoKey;
      const sealed = (await result(
        db.transaction('devices').objectStore('devices').get(`device:${userId}`),
      )) as {
        iv: Uint8Array<ArrayBuffer>;
        ciphertext: ArrayBuffer;
      };
      const lower = address.toLowerCase();
      const encode = (parts: unknown[]) => new TextEncoder().encode(JSON.stringify(parts));
      const plain = new Uint8Array(
        await crypto.subtle.decrypt(
          {
            name: 'AES-GCM',
            iv: sealed.iv,
            additionalData: encode(['dial-device', 1, userId, deviceId, lower]),
          },
          key,
          sealed.ciphertext,
        ),
      );
      const share = plain.slice(32);
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const ciphertext = await crypto.subtle.encrypt(
        {
          name: 'AES-GCM',
          iv,
          additionalData: encode(['dial-device-share', 3, userId, lower, 1, '0123456789abcdef']),
        },
        key,
        share,
      );
      const transaction = db.transaction(['shares', 'devices'], 'readwrite');
      transaction.objectStore('shares').put(
        {
          userId,
          shares: {
            [`${lower}#1#0123456789abcdef`]: {
              address,
              generation: 1,
              split: '0123456789abcdef',
              iv,
              ciphertext,
            },
          },
        },
        userId,
      );
      transaction.objectStore('devices').delete(`device:${userId}`);
      await new Promise((resolve, reject) => {
        transaction.oncomplete = resolve;
        transaction.onerror = () => reject(transaction.error);
      });
      db.close();
      return share.length;
    },
    { userId, deviceId, address },
  );
  expect(before).toBe(33);
  expect(readDevices(address)).toEqual([]);

  // Opening: the old share combines with the wallet's one auth share, and this browser enrolls as a device.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(address);
  expect(readDevices(address)).toEqual([{ how: 'adopted' }]);
  expect((await (await page.request.get('/api/wallet')).json()).legacyAuthShare).toBeNull();
  const stores = await page.evaluate(async (userId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('dial');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const get = (store: string, key: string) =>
      new Promise<unknown>((resolve, reject) => {
        const request = db.transaction(store).objectStore(store).get(key);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    const found = { shares: await get('shares', userId), device: await get('devices', `device:${userId}`) };
    db.close();
    return { shares: found.shares === undefined, device: found.device !== undefined };
  }, userId);
  expect(stores).toEqual({ shares: true, device: true });
  // And it opens through that device from now on.
  await page.reload();
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(address);
});
