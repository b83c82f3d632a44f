import { type Browser, expect, type Page, test } from '@playwright/test';
import { english } from 'viem/accounts';
import {
  enterEmailCode,
  expectKeyboardFocus,
  expectNoSidewaysScroll,
  signInWithEmail,
  snap,
  tabTo,
  uniqueEmail,
} from './steps.js';

// The device screens (Settings › Devices, "Add a device", /link) as a person on a small phone meets them:
// 360×740, in another locale than the tests' en-GB, by keyboard alone. Each step that replaces the one
// before moves the focus to the screen's heading (or to the code's field), so a keyboard or screen reader
// never starts again from the top of the page.

const PHONE = { width: 360, height: 740 };

test.use({ viewport: PHONE, locale: 'fi-FI' });

/** The code "Add a device" shows, as shown (`ABCD-EFGH`). */
async function shownCode(page: Page): Promise<string> {
  const image = page.getByRole('img', { name: /^QR code to add a device, code [A-Z0-9]{4}-[A-Z0-9]{4}$/ });
  await expect(image).toBeVisible();
  return ((await image.getAttribute('aria-label')) ?? '').replace(/^.* /, '');
}

/** The confirmation words a screen shows, in order. */
async function wordsOn(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Confirmation words' });
  await expect(list.getByRole('listitem')).toHaveCount(4);
  return (await list.getByRole('listitem').allTextContents()).map((word) => word.trim());
}

/** A second browser of the same person, at 360×740 in German, signed in and not (yet) a device. */
async function secondBrowser(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: PHONE, locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/');
  await enterEmailCode(page, email);
  await expect(page.getByRole('heading', { name: 'Your wallet is on another device' })).toBeVisible({
    timeout: 30_000,
  });
  return page;
}

test('on a small screen, a QR link is made by keyboard alone, each step taking the focus', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('link-keyboard');
  await page.goto('/');
  await signInWithEmail(page, email);

  // Settings › Devices: this browser, its dates in the browser's locale (Finnish: 28.11.2026), and the
  // button to add one, reached with Tab.
  await page.goto('/settings');
  const devices = page.getByRole('region', { name: 'Devices' });
  await expect(devices.getByRole('listitem')).toHaveCount(1);
  await expect(devices.getByRole('listitem')).toContainText(/Created your wallet \d{1,2}\.\d{1,2}\.\d{4}/);
  await expectNoSidewaysScroll(page);
  const addDevice = devices.getByRole('button', { name: 'Add a device' });
  await tabTo(page, addDevice);
  await expectKeyboardFocus(addDevice);
  await page.keyboard.press('Enter');

  // "Add a device": the heading has the focus; the QR code is named with the code; the countdown is a
  // timer screen readers leave alone, formatted by the locale (Finnish minutes and seconds: 4.59).
  const heading = page.getByRole('heading', { name: 'Add a device' });
  await expect(heading).toBeFocused();
  const code = await shownCode(page);
  // The code as text too, read as "Code: …".
  await expect(page.getByText(`Code: ${code}`, { exact: true })).toBeVisible();
  const timer = page.getByRole('timer');
  await expect(timer).toHaveText(/^Expires in [45]\.\d\d$/);
  await expect(timer).toHaveAttribute('aria-live', 'off');
  await expect(page.getByRole('status')).toHaveText('Waiting for the new device…');
  await expectNoSidewaysScroll(page);
  const cancel = page.getByRole('button', { name: 'Cancel' });
  await tabTo(page, cancel);
  await expectKeyboardFocus(cancel);
  await snap(page, 'layout-add-device-code');

  // The new browser types the code into the field that has the focus, and presses Enter.
  const other = await secondBrowser(browser, email);
  await other.goto('/link');
  const field = other.getByRole('textbox', { name: 'Code from your other device' });
  await expect(field).toBeFocused();
  await expectNoSidewaysScroll(other);
  await other.keyboard.type(code.toLowerCase());
  await other.keyboard.press('Enter');
  // Its words, and the focus on the heading above them (the field is gone).
  const wordsThere = await wordsOn(other);
  await expect(other.getByRole('heading', { name: 'Open your wallet on this device' })).toBeFocused();
  await expect(other.getByRole('status')).toHaveText('Waiting for your other device…');
  await expectNoSidewaysScroll(other);
  await snap(other, 'layout-link-words');

  // The first browser's step changed by itself (the code was entered there): the focus left the Cancel
  // button it replaced for the heading, and the status line names the new browser.
  expect(await wordsOn(page)).toEqual(wordsThere);
  await expect(heading).toBeFocused();
  await expect(page.getByRole('status')).toHaveText(/ entered the code\.$/);
  await expectNoSidewaysScroll(page);
  await snap(page, 'layout-add-device-words');

  // Every BIP-39 word the screens can show fits its box on one line, beside its number.
  const list = page.getByRole('list', { name: 'Confirmation words' });
  const overflowing = await list.evaluate((element, words) => {
    const item = element.querySelectorAll('li')[3] as HTMLLIElement;
    const shown = item.textContent;
    item.textContent = 'a';
    const oneLine = item.getBoundingClientRect().height;
    const tooWide = words.filter((word) => {
      item.textContent = word;
      return item.scrollWidth > item.clientWidth || item.getBoundingClientRect().height > oneLine;
    });
    item.textContent = shown;
    return tooWide;
  }, english);
  expect(overflowing).toEqual([]);

  // Tab, then Enter, on "The words match": added; the focus on the heading again, then on Done.
  const confirm = page.getByRole('button', { name: 'The words match: add it' });
  await page.keyboard.press('Tab');
  await expectKeyboardFocus(confirm);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText('can now open your wallet');
  await expect(heading).toBeFocused();
  await expectNoSidewaysScroll(page);
  const done = page.getByRole('button', { name: 'Done' });
  await page.keyboard.press('Tab');
  await expectKeyboardFocus(done);

  // The new browser is told, its focus on the heading, and opens the wallet from the keyboard.
  await expect(other.getByRole('status')).toContainText('This device can now open your wallet', {
    timeout: 15_000,
  });
  await expect(other.getByRole('heading', { name: 'Open your wallet on this device' })).toBeFocused();
  await expectNoSidewaysScroll(other);
  await other.keyboard.press('Tab');
  await expectKeyboardFocus(other.getByRole('button', { name: 'Open my wallet' }));
  await other.keyboard.press('Enter');
  await expect(other.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });

  // Done: back in Settings, two devices.
  await page.keyboard.press('Enter');
  await expect(devices.getByRole('listitem')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await other.context().close();
});

test('a cancelled link and a refused code leave the focus where the next step starts', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('link-focus');
  await page.goto('/');
  await signInWithEmail(page, email);
  const other = await secondBrowser(browser, email);

  // A code that cannot be one: the alert is read with the field, which has the focus back to correct it.
  await other.goto('/link');
  const field = other.getByRole('textbox', { name: 'Code from your other device' });
  await expect(field).toBeFocused();
  await other.keyboard.type('ACDE-FGH');
  await other.keyboard.press('Enter');
  const alert = other.getByRole('alert');
  await expect(alert).toContainText('A link code is 8 letters and digits');
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  const described = (await field.getAttribute('aria-describedby')) ?? '';
  expect(described.split(' ')).toContain(await alert.getAttribute('id'));
  await expectNoSidewaysScroll(other);
  await snap(other, 'layout-link-refused');

  // The first browser cancels from the keyboard: the focus goes to the heading, then to "Start again".
  await page.goto('/settings');
  const devices = page.getByRole('region', { name: 'Devices' });
  await devices.getByRole('button', { name: 'Add a device' }).click();
  const code = await shownCode(page);
  await other.keyboard.press('Control+A');
  await other.keyboard.type(code);
  await other.keyboard.press('Enter');
  await wordsOn(other);
  await wordsOn(page);
  const heading = page.getByRole('heading', { name: 'Add a device' });
  await tabTo(page, page.getByRole('button', { name: 'They differ: cancel' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Cancelled. Nothing was shared.');
  await expect(heading).toBeFocused();
  await expectNoSidewaysScroll(page);
  await page.keyboard.press('Tab');
  await expectKeyboardFocus(page.getByRole('button', { name: 'Start again' }));

  // The new browser hears of it: its heading has the focus, and "Enter another code" brings the field back,
  // empty and focused.
  await expect(other.getByRole('status')).toHaveText('This device was not added.', { timeout: 15_000 });
  await expect(other.getByRole('heading', { name: 'Open your wallet on this device' })).toBeFocused();
  await other.keyboard.press('Tab');
  await expectKeyboardFocus(other.getByRole('button', { name: 'Enter another code' }));
  await other.keyboard.press('Enter');
  await expect(field).toBeFocused();
  await expect(field).toHaveValue('');

  // "Start again" makes a new code; the focus is on the heading, Cancel one Tab away.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Waiting for the new device…');
  await expect(heading).toBeFocused();
  expect(await shownCode(page)).not.toBe(code);
  await page.keyboard.press('Tab');
  await expectKeyboardFocus(page.getByRole('button', { name: 'Cancel' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Cancelled. Nothing was shared.');
  await expect(heading).toBeFocused();
  await other.context().close();
});
