import { expect, type Page, test } from '@playwright/test';
import { messagesTo, readCode, seenMessages } from './outbox.js';
import {
  enterCodeAndOpenWallet,
  pickCountry,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
  uniqueUkMobile,
} from './steps.js';

// A browser in American English: the browser's own region (the United States) is the default a country
// must beat, so each test shows where its country came from.
test.use({ locale: 'en-US' });

/** The phone field's country button, whose name is "Country: United Kingdom +44". */
const countryButton = (page: Page) => page.getByRole('button', { name: /^Country/ });

/** Opens the send form from the wallet home. */
async function openSend(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Send', exact: true })).toBeFocused();
}

/** Leaves the send form by its "Back" (the send is cancelled). */
async function leaveSend(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
}

/** Signs in with a number pasted in international form and returns to the wallet home. */
async function signInWithPhone(page: Page, e164: string, pasted: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Phone number').fill(pasted);
  const seen = await requestCode(page, e164);
  await enterCodeAndOpenWallet(page, e164, seen);
}

/** How many codes the dev outbox holds for `to`. */
async function codesSentTo(page: Page, to: string): Promise<number> {
  return (await messagesTo(page.request, to)).filter((message) => message.code !== undefined).length;
}

function randomDigits(count: number): string {
  return String(Math.floor(Math.random() * 10 ** count)).padStart(count, '0');
}

const PEOPLE = [
  {
    who: 'a UK',
    country: /^Country: United Kingdom \+44$/,
    number: () => {
      const { e164 } = uniqueUkMobile();
      return { e164, pasted: `+44 ${e164.slice(3, 7)} ${e164.slice(7)}` };
    },
  },
  {
    who: 'a German',
    country: /^Country: Germany \+49$/,
    number: () => {
      const digits = randomDigits(8);
      return { e164: `+49170${digits}`, pasted: `+49 170 ${digits}` };
    },
  },
];

for (const { who, country, number } of PEOPLE) {
  test(`${who} phone user’s send form starts with their own country, even after another was picked`, async ({
    page,
  }) => {
    const { e164, pasted } = number();
    await signInWithPhone(page, e164, pasted);

    await openSend(page);
    await expect(countryButton(page)).toHaveAccessibleName(country);
    // Paying a friend abroad once does not change where the person is.
    await pickCountry(page, 'France', /France \+33/);
    await expect(countryButton(page)).toHaveAccessibleName(/France \+33/);
    await leaveSend(page);
    await openSend(page);
    await expect(countryButton(page)).toHaveAccessibleName(country);
  });
}

test('an e-mail user’s send form starts with the last country picked, and sign-out keeps it for the next sign-in', async ({
  page,
}) => {
  await page.goto('/');
  await expect(countryButton(page)).toHaveAccessibleName(/United States \+1/);
  // Picked on the sign-in form, then the person signs in by e-mail instead.
  await pickCountry(page, 'Germany', /Germany \+49/);
  await signInWithEmail(page, uniqueEmail('countries'));

  await openSend(page);
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: Germany \+49$/);
  await pickCountry(page, 'Ireland', /Ireland \+353/);
  await leaveSend(page);
  await openSend(page);
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: Ireland \+353$/);
  await leaveSend(page);

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  await page.getByRole('tab', { name: 'Phone' }).click();
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: Ireland \+353$/);
  // A reload (a new visit) too.
  await page.reload();
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: Ireland \+353$/);
});

test('a pasted number shows its main country: +44 7911 123456 the United Kingdom, +1 by its area code', async ({
  page,
}) => {
  await page.goto('/');
  const phone = page.getByLabel('Phone number');

  // +44 7911 is in Guernsey's range of the UK plan: the flag is the United Kingdom's.
  await phone.fill('+44 7911 123456');
  await expect(phone).toHaveValue('+44 7911 123456');
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: United Kingdom \+44$/);
  await snap(page, 'sign-in-pasted-uk');

  // +1: the United States until the number is whole, then the country of its area code.
  await phone.fill('');
  await pickCountry(page, 'United Kingdom', /United Kingdom \+44/);
  await phone.pressSequentially('+1416234567');
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: United States \+1$/);
  await phone.press('8');
  await expect(phone).toHaveValue('+1 416 234 5678');
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: Canada \+1$/);

  await phone.fill('+1 212 555 0123');
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: United States \+1$/);
  await phone.fill('+14165550123');
  await expect(countryButton(page)).toHaveAccessibleName(/^Country: Canada \+1$/);
  await snap(page, 'sign-in-pasted-canada');
});

test('a reload on the code screen keeps the code entry, and the code sent before it still signs in', async ({
  page,
}) => {
  const { e164, national } = uniqueUkMobile();
  await page.goto('/');
  await pickCountry(page, 'United Kingdom', /United Kingdom \+44/);
  await page.getByLabel('Phone number').fill(national);
  const seen = await requestCode(page, e164);
  const code = await readCode(page.request, e164, seen);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await expect(page.getByText(`${e164.slice(0, 3)} ${e164.slice(3, 7)} ${e164.slice(7)}`)).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend code in \d+s$/ })).toBeDisabled();
  await expect(page.getByLabel('Verification code')).toBeFocused();
  await snap(page, 'code-entry-after-reload');

  await page.getByLabel('Verification code').fill(code);
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  expect(await codesSentTo(page, e164)).toBe(1);

  // Signed in, the kept code step is gone: after sign-out the form shows, not the code screen.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
});

/** The seconds a "Resend code in 12s" button shows. */
async function resendWait(page: Page): Promise<number> {
  const button = page.getByRole('button', { name: /^Resend code in \d+s$/ });
  const name = (await button.textContent()) ?? '';
  return Number(/(\d+)s/.exec(name)?.[1]);
}

test('asking again for a code after a reload shows the real wait, never “Too many attempts”', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('cooldown');
  await page.goto('/');
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  await requestCode(page, email);

  // Back to the form after a reload, and the same address again: the code already sent is the one to enter.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a different email' }).click();
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(await codesSentTo(page, email)).toBe(1);

  // Another tab of this browser asks for the same address a few seconds later: it opens the code entry
  // with the server's wait, which is the first tab's (what is left of 30 s), not a fresh 30 s.
  await expect(page.getByRole('button', { name: /^Resend code in ([1-9]|1\d|2[0-6])s$/ })).toBeVisible({
    timeout: 20_000,
  });
  const other = await page.context().newPage();
  await other.goto('/');
  await other.getByRole('tab', { name: 'Email' }).click();
  await other.getByLabel('Email address').fill(email);
  await other.getByRole('button', { name: 'Send code' }).click();
  await expect(other.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
  await expect(other.getByRole('alert')).toHaveCount(0);
  expect(await resendWait(other)).toBeLessThanOrEqual(27);
  expect(await codesSentTo(page, email)).toBe(1);

  // Once the wait is over, the other tab sends a new code; this tab, asking right after, is told the real
  // wait in words and in its countdown.
  const seen = await seenMessages(page.request, email);
  await other.getByRole('button', { name: 'Resend code', exact: true }).click({ timeout: 40_000 });
  await expect(other.getByText('New code sent.')).toBeVisible();
  const code = await readCode(page.request, email, seen);
  await page.getByRole('button', { name: 'Resend code', exact: true }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(
    /^A code was sent a moment ago: enter it, or wait to ask for a new one\. You can try again in \d+ seconds?\.$/,
  );
  await expect(alert).not.toContainText('Too many attempts');
  const told = Number(/in (\d+) second/.exec((await alert.textContent()) ?? '')?.[1]);
  expect(told).toBeGreaterThan(0);
  expect(told).toBeLessThanOrEqual(30);
  expect(await resendWait(page)).toBeLessThanOrEqual(told);
  await snap(page, 'code-entry-real-wait');

  // The newest code (this browser's) signs in from this tab.
  await page.getByLabel('Verification code').fill(code);
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await other.close();
});
