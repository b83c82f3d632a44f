import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { ageRecoveryTries, ageSessions, readRecoveryShare } from './database.js';
import { readCode, seenMessages } from './outbox.js';
import { enterEmailCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

const PASSWORD = 'plum orchard lantern 42';
/** What the strength check says of `password123` (zxcvbn's warning and suggestion). */
const TOO_EASY = 'Too easy to guess. This is a commonly used password. Add more words that are less common.';
/** The worker of the strength check (its script holds zxcvbn's dictionaries). */
const STRENGTH_WORKER = '**/assets/passwordStrengthWorker-*.js';

/** Signs in on a page whose browser holds no device share: the recovery screen appears instead of the wallet. */
async function signInExpectingRecovery(page: Page, email: string): Promise<void> {
  await page.goto('/');
  await enterEmailCode(page, email);
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toBeVisible({ timeout: 30_000 });
}

async function walletAddress(page: Page): Promise<string> {
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  return (await page.getByLabel('Wallet address', { exact: true }).textContent())?.trim() ?? '';
}

/**
 * Starts recording every text the page's status lines show, so a test can check that a step showed its
 * progress even when the step is over before an assertion could look (scrypt takes about a second here).
 */
async function recordStatuses(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { statuses: string[] }).statuses = seen;
    new MutationObserver(() => {
      for (const element of Array.from(document.querySelectorAll('[role="status"]'))) {
        const text = element.textContent ?? '';
        if (text !== '' && !seen.includes(text)) seen.push(text);
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  return () => page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
}

/** Counts the page's OPRF evaluations (each is one of the hour's recovery tries) from now on. */
function countOprfEvaluations(page: Page): () => number {
  let count = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/wallet/recovery/oprf') {
      count += 1;
    }
  });
  return () => count;
}

/** Whether the texts include a progress line of `label` strictly between 0 and 100 %. */
function showedProgress(texts: string[], label: string): boolean {
  return texts.some((text) => {
    const match = new RegExp(`^${label}… (\\d+)%$`).exec(text);
    return match !== null && Number(match[1]) > 0 && Number(match[1]) < 100;
  });
}

/** From the wallet home: opens "Set up recovery" in the Security panel and submits {@link PASSWORD}. */
async function submitRecoveryPassword(page: Page): Promise<void> {
  await page
    .getByRole('region', { name: 'Security', exact: true })
    .getByRole('button', { name: 'Set up recovery' })
    .click();
  await page.getByLabel('Recovery password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm recovery password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set up recovery' }).click();
}

/**
 * On "Confirm it's you": asks for a code to `email` and types it (a whole code is checked as soon as it is
 * typed, as at sign-in).
 */
async function confirmWithFreshCode(page: Page, email: string): Promise<void> {
  const seen = await seenMessages(page.request, email);
  await page.getByRole('button', { name: 'Send me a code' }).click();
  await page.getByLabel('Confirmation code').fill(await readCode(page.request, email, seen));
}

async function localBalance(page: Page) {
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  return page.getByLabel('Balance', { exact: true });
}

test('a recovery password set up in one browser recovers the wallet in a fresh one, and the first browser still opens it', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('recover');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  const balance = await localBalance(page);
  await page.getByRole('button', { name: 'Get test ETH' }).click();
  await expect(balance).toHaveText(/(^|[^\d.])1 ETH/);

  // New users are asked to set up recovery, and told what losing it means.
  const reminder = page.getByRole('region', { name: 'Protect your funds' });
  await expect(reminder).toContainText('the wallet and its funds are gone for good: Dial cannot reset it');
  const security = page.getByRole('region', { name: 'Security', exact: true });
  await expect(security).toContainText('Recovery is not set up.');
  await snap(page, 'recovery-reminder');
  // "Later" hides the reminder; the Security panel still offers it.
  await reminder.getByRole('button', { name: 'Later' }).click();
  await expect(reminder).toHaveCount(0);
  await security.getByRole('button', { name: 'Set up recovery' }).click();

  await expect(page.getByRole('heading', { name: 'Set up recovery' })).toBeVisible();
  await expect(page.getByText('your wallet and its funds are gone for good')).toBeVisible();
  // The policy and the confirmation are checked before any work starts.
  await page.getByLabel('Recovery password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(page.getByText('Use at least 10 characters (this one has 5).')).toBeVisible();
  // A common password is refused by the strength check, saying why and what would be better; the keyboard
  // alone does it (Enter submits), and the field has the focus again to change it.
  const setupStatuses = await recordStatuses(page);
  const setupEvaluations = countOprfEvaluations(page);
  await page.getByLabel('Recovery password', { exact: true }).fill('password123');
  await page.getByLabel('Confirm recovery password').fill('password123');
  await page.getByLabel('Confirm recovery password').press('Enter');
  await expect(page.getByRole('alert')).toHaveText(TOO_EASY);
  await expect(page.getByLabel('Recovery password', { exact: true })).toBeFocused();
  await expect(page.getByLabel('Recovery password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  expect(await setupStatuses()).toContain('Checking how easy this password is to guess…');
  await snap(page, 'recovery-setup-weak');
  // Refused in the browser: the server was asked nothing, so no recovery try was spent.
  expect(setupEvaluations()).toBe(0);
  await page.getByLabel('Recovery password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm recovery password').fill(`${PASSWORD}!`);
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(page.getByText('The two passwords are not the same.')).toBeVisible();
  await snap(page, 'recovery-setup-errors');
  await page.setViewportSize({ width: 360, height: 740 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'recovery-setup-360');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByLabel('Confirm recovery password').fill(PASSWORD);
  const statuses = await recordStatuses(page);
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await snap(page, 'recovery-setup-progress');

  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(security).toContainText(/Recovery: recovery password, set up on \d+ \w+ \d{4}\./);
  await expect(security.getByRole('status')).toHaveText(
    'Recovery is set up. If you have none of your devices any more, your recovery password opens your wallet on a new one.',
  );
  await expect(page.getByRole('region', { name: 'Protect your funds' })).toHaveCount(0);
  await expect(security.getByRole('button', { name: 'Change recovery' })).toBeVisible();
  // The strong password took one evaluation, the hour's one recovery try spent by setting up.
  expect(setupEvaluations()).toBe(1);
  // scrypt showed its progress while it ran.
  expect(showedProgress(await statuses(), 'Protecting your recovery key')).toBe(true);
  await snap(page, 'recovery-set-up');
  // The database holds a record that says its key also needs the server's OPRF evaluation of the password.
  const stored = readRecoveryShare(address);
  expect(stored).toMatchObject({ generation: 2, method: 'password' });
  expect(stored?.kdf).toEqual({
    name: 'scrypt',
    N: 131_072,
    r: 8,
    p: 1,
    salt: expect.any(String),
    oprf: 'ristretto255-sha512',
  });

  // A fresh browser context has no IndexedDB: sign in there and recover.
  const fresh: BrowserContext = await browser.newContext();
  try {
    const other = await fresh.newPage();
    // Recovery on a new browser comes long after setting it up, whose one try is then an hour old.
    expect(ageRecoveryTries(address)).toBe(1);
    await signInExpectingRecovery(other, email);
    await expect(
      other.getByText('This browser is not one of the devices your wallet opens on.'),
    ).toBeVisible();
    // Opened after the code, its only field has the focus: the password can be typed at once.
    await expect(other.getByLabel('Recovery password')).toBeFocused();
    await snap(other, 'recovery-screen');
    // Every password tried goes through the server's OPRF, blinded: only the element is sent.
    const evaluations: string[] = [];
    other.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/wallet/recovery/oprf') {
        evaluations.push(request.postData() ?? '');
      }
    });

    await other.getByLabel('Recovery password').fill('plum orchard lantern 43');
    await other.getByRole('button', { name: 'Recover wallet' }).click();
    // A wrong password costs one of the hour's 10 tries (its one evaluation), and the screen says so.
    await expect(other.getByRole('alert')).toHaveText(
      'That recovery password is not right. 9 tries left before Dial makes you wait.',
      { timeout: 60_000 },
    );
    await snap(other, 'recovery-wrong-password');
    expect(evaluations).toHaveLength(1);
    expect(Object.keys(JSON.parse(evaluations[0] ?? '{}'))).toEqual(['blindedElement']);
    expect(evaluations[0]).not.toContain('plum');

    await other.getByLabel('Recovery password').fill(PASSWORD);
    const otherStatuses = await recordStatuses(other);
    await other.getByRole('button', { name: 'Recover wallet' }).click();
    expect(await walletAddress(other)).toBe(address);
    // scrypt showed its progress while it unlocked the recovery share; then this browser was added.
    expect(showedProgress(await otherStatuses(), 'Unlocking your recovery key')).toBe(true);
    expect(await otherStatuses()).toContain('Adding this browser to your wallet…');
    await expect(await localBalance(other)).toHaveText(/(^|[^\d.])1 ETH/);
    await expect(other.getByRole('region', { name: 'Security', exact: true })).toContainText(
      'Recovery: recovery password, set up on',
    );
    await snap(other, 'recovery-recovered');
    // One more evaluation unlocked the share. The recovery record stays as it was: recovering adds this
    // browser as a device of its own and replaces nothing.
    expect(evaluations).toHaveLength(2);
    expect(readRecoveryShare(address)).toEqual(stored);
  } finally {
    await fresh.close();
  }

  // The first browser is still a device of the wallet: it opens it with no password (no lock-out).
  await page.reload();
  expect(await walletAddress(page)).toBe(address);
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toHaveCount(0);
});

const HOUR_MS = 3_600_000;

test('wrong recovery passwords are limited: after the hour’s tries, the wait is shown', async ({
  page,
  browser,
}) => {
  test.setTimeout(360_000);
  // The budget's window is a clock hour on the server (this machine's clock). Setup, the tries and the
  // refusal must fall in one window, with more than a minute of it left for the wait to read in minutes:
  // near the end of an hour, start in the next one.
  const intoHour = Date.now() % HOUR_MS;
  if (intoHour > HOUR_MS - 6 * 60_000) await page.waitForTimeout(HOUR_MS - intoHour + 2_000);
  const email = uniqueEmail('ratelimit');
  await page.goto('/');
  await signInWithEmail(page, email);
  await submitRecoveryPassword(page);
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 60_000,
  });

  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await signInExpectingRecovery(other, email);
    const alert = other.getByRole('alert');
    // 10 an hour, each OPRF evaluation of a password one (setting recovery up took one): 9 tries, one each,
    // each saying how many are left, the last when the next is allowed.
    for (let attempt = 1; attempt <= 9; attempt++) {
      const left = 9 - attempt;
      await other.getByLabel('Recovery password').fill(`wrong password ${attempt}`);
      await other.getByRole('button', { name: 'Recover wallet' }).click();
      await expect(alert).toHaveText(
        left === 0
          ? /^That recovery password is not right\. That was the last try for now: Dial makes you wait before the next one, to keep guessers out\. You can try again in \d+ minutes?\.$/
          : `That recovery password is not right. ${left} ${left === 1 ? 'try' : 'tries'} left before Dial makes you wait.`,
        { timeout: 30_000 },
      );
      await expect(other.getByRole('button', { name: 'Recover wallet' })).not.toHaveAttribute(
        'aria-disabled',
        'true',
      );
    }
    await snap(other, 'recovery-last-try');
    // Even the right password now waits: the limit is per user, not per guess.
    await other.getByLabel('Recovery password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Recover wallet' }).click();
    await expect(alert).toHaveText(
      /^Too many attempts\. Wait a little, then try again\. You can try again in \d+ minutes?\.$/,
    );
    await snap(other, 'recovery-rate-limited');
  } finally {
    await fresh.close();
  }
});

test('a strength check that cannot be downloaded refuses no password: it says so, checks again, or steps aside', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('strengthoffline'));
  const security = page.getByRole('region', { name: 'Security', exact: true });
  const password = page.getByLabel('Recovery password', { exact: true });
  const confirmation = page.getByLabel('Confirm recovery password');

  // The worker's script (zxcvbn and its dictionaries) cannot be downloaded.
  await page.route(STRENGTH_WORKER, (route) => route.abort('failed'));
  await security.getByRole('button', { name: 'Set up recovery' }).click();
  await password.fill(PASSWORD);
  await confirmation.fill(PASSWORD);
  const failed = page.getByRole('alert').filter({ hasText: 'could not load its check' });
  await expect(failed).toHaveText(
    /^Dial could not load its check of how easy a password is to guess \(is the connection down\?\), so it cannot tell yet whether this one is\./,
  );
  await snap(page, 'recovery-strength-offline');
  // Submitting tries again, and nothing is set up while it cannot tell: the password is not called weak.
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(failed).toBeVisible();
  await expect(page.getByText('Too easy to guess.')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Set up recovery' })).toBeVisible();

  // The connection is back: "Check again", by the keyboard, loads it, and a weak password is refused again.
  await page.unroute(STRENGTH_WORKER);
  await page.getByRole('button', { name: 'Check again' }).focus();
  await page.keyboard.press('Enter');
  await expect(failed).toHaveCount(0);
  await password.fill('password123');
  await confirmation.fill('password123');
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(page.getByRole('alert')).toHaveText(TOO_EASY);
  await password.fill(PASSWORD);
  await confirmation.fill(PASSWORD);
  await page.getByRole('button', { name: 'Set up recovery' }).click();
  await expect(security.getByRole('status')).toHaveText(
    'Recovery is set up. If you have none of your devices any more, your recovery password opens your wallet on a new one.',
    { timeout: 60_000 },
  );

  // Offline again when changing it: "Use it without the check" does not wait for a check that cannot come.
  await page.route(STRENGTH_WORKER, (route) => route.abort('failed'));
  await security.getByRole('button', { name: 'Change recovery' }).click();
  await password.fill('kettle mosaic upward 9');
  await confirmation.fill('kettle mosaic upward 9');
  await expect(failed).toBeVisible();
  await page.getByRole('button', { name: 'Use it without the check' }).click();
  await expect(security.getByRole('status')).toHaveText(
    /^Recovery is changed\. If you have none of your devices any more, your recovery password opens your wallet on a new one\.$/,
    { timeout: 60_000 },
  );
});

test('a passkey protects recovery (virtual authenticator with PRF) and recovers the wallet after data loss', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      hasPrf: true,
    },
  });

  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('passkey'));
  await page
    .getByRole('region', { name: 'Protect your funds' })
    .getByRole('button', { name: 'Set up recovery' })
    .click();
  await page.getByRole('radio', { name: /A passkey/ }).check();
  await snap(page, 'recovery-setup-passkey');
  await page.getByRole('button', { name: 'Create passkey' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 30_000,
  });
  const security = page.getByRole('region', { name: 'Security', exact: true });
  await expect(security).toContainText('Recovery: passkey, set up on');

  // This browser's data is lost (the passkey is not: it lives in the authenticator).
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase('dial');
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }),
  );
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/recover it with your recovery passkey/)).toBeVisible();
  await snap(page, 'recovery-passkey-screen');
  await page.getByRole('button', { name: 'Use my passkey' }).click();
  expect(await walletAddress(page)).toBe(address);
  await expect(page.getByRole('region', { name: 'Security', exact: true })).toContainText(
    'Recovery: passkey',
  );

  // Recovery replaced nothing: the same passkey opens it again after another loss.
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase('dial');
        request.onsuccess = () => resolve();
        request.onerror = () => reject(request.error);
      }),
  );
  await page.reload();
  await page.getByRole('button', { name: 'Use my passkey' }).click();
  expect(await walletAddress(page)).toBe(address);

  // Changing recovery (passkey → password) is the same rotation; the wallet stays open.
  await page
    .getByRole('region', { name: 'Security', exact: true })
    .getByRole('button', { name: 'Change recovery' })
    .click();
  await expect(page.getByRole('heading', { name: 'Change recovery' })).toBeVisible();
  await expect(page.getByText('Your old recovery passkey will stop working.')).toBeVisible();
  await page.getByRole('radio', { name: /A recovery password/ }).check();
  await page.getByLabel('Recovery password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm recovery password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Change recovery' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 60_000,
  });
  const changed = page.getByRole('region', { name: 'Security', exact: true });
  await expect(changed).toContainText('Recovery: recovery password, set up on');
  await expect(changed.getByRole('status')).toHaveText(
    /^Recovery is changed\. If you have none of your devices any more, your (recovery password|passkey) opens your wallet on a new one\.$/,
  );
  expect(await walletAddress(page)).toBe(address);
});

test('setting up recovery long after sign-in asks for a fresh code first, then finishes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('stale');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  // The sign-in is now 11 minutes old: replacing the key shares needs a new code (the server's rule).
  expect(ageSessions(address, 11)).toBe(1);

  await submitRecoveryPassword(page);

  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Your sign-in was a while ago')).toBeVisible();
  await snap(page, 'recovery-confirm-code');
  await confirmWithFreshCode(page, email);

  // The setup resumes with the same split and password: no second form, and recovery is on.
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 60_000,
  });
  const security = page.getByRole('region', { name: 'Security', exact: true });
  await expect(security.getByRole('status')).toHaveText(
    'Recovery is set up. If you have none of your devices any more, your recovery password opens your wallet on a new one.',
  );
  await expect(security).toContainText('Recovery: recovery password, set up on');
  // The wallet still opens through this browser's device after a reload.
  await page.reload();
  expect(await walletAddress(page)).toBe(address);
});

test('another tab opening the wallet while a recovery setup waits for its code: both open it after', async ({
  page,
  context,
}) => {
  test.setTimeout(150_000);
  const email = uniqueEmail('twotabs');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  expect(ageSessions(address, 11)).toBe(1);

  // Tab A: "Set up recovery" makes the new recovery pair, then waits for a fresh code.
  await submitRecoveryPassword(page);
  await expect(page.getByRole('heading', { name: "Confirm it's you" })).toBeVisible({ timeout: 60_000 });

  // Tab B opens the wallet meanwhile (through the same device), then reloads it once more.
  const other = await context.newPage();
  await other.goto('/');
  expect(await walletAddress(other)).toBe(address);
  await other.reload();
  expect(await walletAddress(other)).toBe(address);
  await expect(other.getByRole('region', { name: 'Security', exact: true })).toContainText(
    'Recovery is not set up.',
  );

  // Tab A confirms with the code: the server takes the new recovery pair.
  await confirmWithFreshCode(page, email);
  await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible({
    timeout: 60_000,
  });
  await expect(page.getByRole('region', { name: 'Security', exact: true }).getByRole('status')).toHaveText(
    'Recovery is set up. If you have none of your devices any more, your recovery password opens your wallet on a new one.',
  );

  // Both tabs open the wallet through this browser's device, which the new pair did not change.
  for (const tab of [page, other]) {
    await tab.reload();
    expect(await walletAddress(tab)).toBe(address);
    await expect(tab.getByRole('region', { name: 'Security', exact: true })).toContainText(
      'Recovery: recovery password, set up on',
    );
  }
  await snap(other, 'recovery-two-tabs-after');
});

test('a change of recovery that never reaches the server leaves the wallet opening here and elsewhere', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('unsent');
  await page.goto('/');
  const address = await signInWithEmail(page, email);
  await submitRecoveryPassword(page);
  const security = page.getByRole('region', { name: 'Security', exact: true });
  await expect(security.getByRole('status')).toHaveText(/^Recovery is set up\./, { timeout: 60_000 });
  const stored = readRecoveryShare(address);

  // "Change recovery" whose request never reaches the server: nothing changed, and it says so.
  await page.route('**/api/wallet/shares', (route) =>
    route.request().method() === 'PUT' ? route.abort('failed') : route.fallback(),
  );
  await security.getByRole('button', { name: 'Change recovery' }).click();
  await page.getByLabel('Recovery password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm recovery password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Change recovery' }).click();
  await expect(page.getByRole('alert')).toBeVisible({ timeout: 60_000 });
  await page.unroute('**/api/wallet/shares');
  expect(readRecoveryShare(address)).toEqual(stored);

  // The wallet is recovered on another browser with the password that still holds…
  const fresh: BrowserContext = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await signInExpectingRecovery(other, email);
    await other.getByLabel('Recovery password').fill(PASSWORD);
    await other.getByRole('button', { name: 'Recover wallet' }).click();
    expect(await walletAddress(other)).toBe(address);
  } finally {
    await fresh.close();
  }

  // …and this browser, a device of its own, opens it as before: no recovery screen.
  await page.goto('/');
  expect(await walletAddress(page)).toBe(address);
  await expect(page.getByRole('heading', { name: 'Recover your wallet' })).toHaveCount(0);
});
