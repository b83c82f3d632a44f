import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { readCode, seenMessages } from './outbox.js';

const screenshotDir = join(import.meta.dirname, '..', 'artifacts', 'screenshots');

/** Saves a full-page screenshot as a test artifact (e2e/artifacts/screenshots/<name>.png). */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
}

/** Picks a country in the sign-in form's country picker by searching for it. */
export async function pickCountry(page: Page, search: string, option: RegExp): Promise<void> {
  await page.getByRole('button', { name: /^Country/ }).click();
  await page.getByLabel('Search countries').fill(search);
  await page.getByRole('option', { name: option }).click();
}

/** Asks for a code for a phone number already typed in; returns the dev outbox ids seen before. */
export async function requestCode(page: Page, to: string): Promise<string[]> {
  const seen = await seenMessages(page.request, to);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  return seen;
}

/** Types the code sent to `to` and waits for the wallet to open; returns the wallet's address. */
export async function enterCodeAndOpenWallet(
  page: Page,
  to: string,
  seen: readonly string[],
): Promise<string> {
  const code = await readCode(page.request, to, seen);
  await page.getByLabel('Verification code').fill(code);
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  // Exact: the QR code's name ("QR code of your wallet address") contains these words too.
  const address = (await page.getByLabel('Wallet address', { exact: true }).textContent())?.trim() ?? '';
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  return address;
}

/**
 * From the sign-in screen: asks for a code for an e-mail address and types the one sent, then waits for
 * nothing (what opens next is the caller's to check).
 */
export async function enterEmailCode(page: Page, email: string): Promise<void> {
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  const seen = await requestCode(page, email);
  await page.getByLabel('Verification code').fill(await readCode(page.request, email, seen));
}

/** Signs in with an e-mail address from the sign-in screen and returns the wallet's address. */
export async function signInWithEmail(page: Page, email: string): Promise<string> {
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  const seen = await requestCode(page, email);
  return enterCodeAndOpenWallet(page, email, seen);
}

/** An e-mail address no other test uses. */
export function uniqueEmail(name: string): string {
  return `${name}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** A UK mobile number no other test uses (+44 7400 1xxxxx; the library refuses the 07700 900xxx range). */
export function uniqueUkMobile(): { e164: string; national: string } {
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  return { e164: `+447400${1}${digits}`, national: `07400 1${digits}` };
}

/** The page scrolls down only: nothing is wider than the screen. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
  });
  expect(scrollWidth, 'the page is no wider than the screen').toBeLessThanOrEqual(clientWidth);
}

/** Presses Tab until `target` has the focus (at most `most` times): it is reachable by keyboard. */
export async function tabTo(page: Page, target: Locator, most = 60): Promise<void> {
  for (let press = 0; press < most; press++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`${target} took no focus in ${most} presses of Tab`);
}

/** `element` has the focus, drawn as the keyboard's (a ring), and is on screen. */
export async function expectKeyboardFocus(element: Locator): Promise<void> {
  await expect(element).toBeFocused();
  await expect(element).toBeInViewport();
  expect(
    await element.evaluate(
      (node) => node.matches(':focus-visible') && getComputedStyle(node).outlineStyle !== 'none',
    ),
  ).toBe(true);
}
