import { join } from 'node:path';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import {
  enterCodeAndOpenWallet,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
  uniqueUkMobile,
} from './steps.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Where `snap` saves screenshots too. */
const SCREENSHOTS = join(import.meta.dirname, '..', 'artifacts', 'screenshots');

/** The wallet home's balances and main actions: what must be in the first screenful. */
function firstScreenful(page: Page): Record<string, Locator> {
  return {
    balance: page.getByLabel('Balance', { exact: true }),
    usdc: page.getByLabel('USDC balance', { exact: true }),
    send: page.getByRole('button', { name: 'Send', exact: true }),
    receive: page.getByRole('link', { name: 'Receive', exact: true }),
    addFunds: page.getByRole('link', { name: 'Add funds', exact: true }),
  };
}

/**
 * The page as a person sees it, saved in e2e/artifacts/screenshots and attached to the report: the whole
 * page (`<name>.png`) and the first screenful alone (`<name>-first-screen.png`).
 */
async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await snap(page, name);
  await testInfo.attach(name, { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  const firstScreen = await page.screenshot({ path: join(SCREENSHOTS, `${name}-first-screen.png`) });
  await testInfo.attach(`${name}-first-screen`, { body: firstScreen, contentType: 'image/png' });
}

/** Waits for the wallet home after a (re)load, its balance read. */
async function homeLoaded(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/ETH$/);
}

test('at 360×740 a phone user sees their own number in full, the balance and Send, Receive, Add funds on the first screen, and "Later" lasts three days', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const phone = uniqueUkMobile();
  await page.goto('/');
  await page.getByLabel('Phone number').fill(phone.national);
  const seen = await requestCode(page, phone.e164);
  await enterCodeAndOpenWallet(page, phone.e164, seen);

  // Their own number, in full and grouped as people write it: "+44 7400 1xxxxx", not "*xxxx".
  const international = `+44 ${phone.national.slice(1)}`;
  await expect(page.getByText(`Signed in as ${international}`, { exact: true })).toBeVisible();

  // A fresh load, the recovery reminder showing: the balance and the main actions are above the fold.
  await page.reload();
  await homeLoaded(page);
  const reminder = page.getByRole('region', { name: 'Protect your funds' });
  await expect(reminder).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  for (const [name, element] of Object.entries(firstScreenful(page))) {
    await expect(element).toBeVisible();
    const box = await element.boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.y + box!.height, `${name} ends within the first 740 px`).toBeLessThanOrEqual(740);
  }
  // Nothing wider than the phone.
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await keepScreenshot(page, testInfo, 'home-360');

  // "Later" is remembered across reloads…
  await reminder.getByRole('button', { name: 'Later' }).click();
  await expect(reminder).toHaveCount(0);
  await page.reload();
  await homeLoaded(page);
  await expect(page.getByRole('region', { name: 'Security' })).toContainText('Recovery is not set up.');
  await expect(page.getByRole('region', { name: 'Protect your funds' })).toHaveCount(0);

  // …for three days: then the reminder is back.
  await page.evaluate(
    (threeDaysAgo) => {
      const key = Object.keys(localStorage).find((name) => name.startsWith('dial.recoveryLater.'));
      if (key === undefined) throw new Error('"Later" was not kept in localStorage');
      localStorage.setItem(key, String(threeDaysAgo));
    },
    Date.now() - 3 * DAY_MS - 60_000,
  );
  await page.reload();
  await homeLoaded(page);
  await expect(page.getByRole('region', { name: 'Protect your funds' })).toBeVisible();
});

test('at 1280×800 the activity sits beside the balances, and the total in US dollars shows with the sandbox prices', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = uniqueEmail('home-wide');
  await page.goto('/');
  await signInWithEmail(page, email);
  // An e-mail account: the address in full as well.
  await expect(page.getByText(`Signed in as ${email}`, { exact: true })).toBeVisible();

  // The sandbox prices the local chain's test funds: ETH $3,000, USDC $1.
  await page.getByLabel('Network', { exact: true }).selectOption({ label: 'Local' });
  const total = page.getByText(/^≈ .* total on Local$/);
  await expect(total).toHaveText('≈ $0.00 total on Local');
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);
  await expect(total).toHaveText('≈ $3,000.00 total on Local');
  await page.getByRole('button', { name: 'Get test USDC' }).click();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])100 USDC$/);
  await expect(total).toHaveText('≈ $3,100.00 total on Local');

  // The activity is a column of its own, right of the balances, and starts in the first screenful.
  const balance = await page.getByLabel('Balance', { exact: true }).boundingBox();
  const activity = await page.getByRole('region', { name: 'Activity' }).boundingBox();
  expect(balance).not.toBeNull();
  expect(activity).not.toBeNull();
  expect(activity!.x).toBeGreaterThanOrEqual(balance!.x + balance!.width);
  expect(activity!.y).toBeLessThan(balance!.y + balance!.height);
  // The page is not one long column: far shorter than the 2,200 px it was (with an empty history then; the
  // two test-fund entries listed now add about 150 px).
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(1600);
  for (const element of Object.values(firstScreenful(page))) {
    const box = await element.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(800);
  }
  await keepScreenshot(page, testInfo, 'home-1280');

  // A test network's coins are worth nothing: no total there.
  await page.getByLabel('Network', { exact: true }).selectOption({ label: 'Base Sepolia' });
  await expect(page.getByText('Balance on Base Sepolia')).toBeVisible();
  await expect(page.getByText(/total on/)).toHaveCount(0);
});

test('each part of the home on a screen of its own has one heading, not the card and heading twice', async ({
  page,
}) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('home-panels'));
  for (const [path, title] of [
    ['/receive', 'Receive'],
    ['/activity', 'Activity'],
    ['/add-funds', 'Add funds'],
    ['/security', 'Security'],
  ] as const) {
    await page.goto(path);
    const heading = page.getByRole('heading', { name: title, exact: true });
    await expect(heading).toBeFocused({ timeout: 30_000 });
    await expect(heading).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toHaveCount(0);
    // The panel is no card inside the screen's card.
    const panel = page.locator('.panel-screen > .panel');
    await expect(panel).toHaveCSS('border-top-width', '0px');
  }
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/receive');
  await expect(page.getByRole('heading', { name: 'Receive', exact: true })).toBeFocused({ timeout: 30_000 });
  await snap(page, 'receive-360');
  // A screen of the home still leads back to it.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible();
});
