import { expect, type Page, test } from '@playwright/test';
import { enterCodeAndOpenWallet, requestCode, signInWithEmail, snap, uniqueEmail } from './steps.js';

/** A UK mobile number no other test uses (+44 7400 1xxxxx; the library refuses the 07700 900xxx range). */
function uniqueUkMobile(): { e164: string; national: string } {
  const digits = String(Math.floor(Math.random() * 100_000)).padStart(5, '0');
  return { e164: `+447400${1}${digits}`, national: `07400 1${digits}` };
}

async function fund(page: Page, asset: 'ETH' | 'USDC', expected: RegExp): Promise<void> {
  await page.getByRole('button', { name: `Get test ${asset}` }).click();
  const balance = page.getByLabel(asset === 'ETH' ? 'Balance' : 'USDC balance', { exact: true });
  await expect(balance).toHaveText(expected);
}

test('sends 5 USDC to a phone number; the recipient sees it in their balance and verified in activity', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // B signs in by phone first: the number is verified and B has a wallet.
  const recipient = uniqueUkMobile();
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await pageB.goto('/');
  await pageB.getByLabel('Phone number').fill(recipient.national);
  const seen = await requestCode(pageB, recipient.e164);
  const addressB = await enterCodeAndOpenWallet(pageB, recipient.e164, seen);
  await expect(pageB.getByText('No activity yet')).toBeVisible();

  await page.goto('/');
  const addressA = await signInWithEmail(page, uniqueEmail('sender'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await fund(page, 'ETH', /(^|[^\d.])1 ETH$/);
  await fund(page, 'USDC', /(^|[^\d.])100 USDC$/);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const heading = page.getByRole('heading', { name: 'Send', exact: true });
  await expect(heading).toBeFocused();
  await expect(page.getByText('On Local', { exact: true })).toBeVisible();
  await expect(page.getByLabel('A phone number')).toBeChecked();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(recipient.national);
  const masked = `*${recipient.e164.slice(-4)}`;
  const found = page.getByRole('status', { name: 'Recipient' });
  await expect(found).toHaveText(
    `Dial user ${masked} · wallet ${addressB.slice(0, 6)}…${addressB.slice(-4)}`,
  );

  await page.getByLabel('Asset').selectOption({ label: 'USDC' });
  await expect(page.getByText('Available: 100 USDC')).toBeVisible();
  // A bad amount says why.
  await page.getByLabel('Amount (USDC)').fill('1.1234567');
  await expect(page.getByText('USDC has at most 6 decimal places.')).toBeVisible();
  await page.getByLabel('Amount (USDC)').fill('5');
  await expect(page.getByRole('status', { name: 'Network fee' })).toHaveText(
    /Network fee: up to [\d.,<\s]+ETH/,
  );
  await snap(page, 'send-form');

  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  const summary = page.locator('.send-summary');
  await expect(summary).toContainText('+44 7400');
  await expect(summary).toContainText('Local');
  await expect(summary).toContainText('5 USDC');
  await expect(summary).toContainText(/Network fee\s*up to .*ETH/);
  await snap(page, 'send-confirm');

  await page.getByRole('button', { name: 'Confirm and send' }).click();
  const status = page.getByRole('status', { name: 'Transfer status' });
  await expect(status).toHaveText(/^Confirmed/, { timeout: 30_000 });
  // The local chain has no block explorer: the hash is shown instead of a link.
  await expect(page.getByLabel('Transaction hash')).toContainText(/0x[0-9a-f]{64}/);
  await expect(page.getByRole('link', { name: /View on/ })).toHaveCount(0);
  await snap(page, 'send-status');

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await expect(page.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])95 USDC$/);
  const sent = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText('Sent');
  await expect(sent).toContainText('−5 USDC');
  await expect(sent).toContainText(`To ${masked}`);
  await expect(sent).toContainText('Local');
  await expect(sent).toContainText('Confirmed');

  // B sees the 5 USDC on Local and the transfer, checked on the chain.
  await pageB.reload();
  await expect(pageB.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await pageB.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(pageB.getByLabel('USDC balance', { exact: true })).toHaveText(/(^|[^\d.])5 USDC$/);
  const received = pageB.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(received).toHaveCount(1);
  await expect(received).toContainText('Received');
  await expect(received).toContainText('+5 USDC');
  await expect(received).toContainText(`From ${addressA.slice(0, 6)}…${addressA.slice(-4)}`);
  await expect(received).toContainText('Confirmed · verified on-chain');
  await snap(pageB, 'activity-received');

  // B holds USDC but no ETH for the fee: sending USDC is refused before anything is signed.
  await pageB.getByRole('button', { name: 'Send', exact: true }).click();
  await pageB.getByLabel('A wallet address').check();
  await pageB.getByLabel('Recipient address').fill(addressA);
  await pageB.getByLabel('Asset').selectOption({ label: 'USDC' });
  await pageB.getByLabel('Amount (USDC)').fill('1');
  await expect(pageB.getByRole('status', { name: 'Network fee' })).toHaveText(/up to/);
  await expect(
    pageB.getByText('Not enough funds to cover the amount and the network fee. Add funds or send less.'),
  ).toBeVisible();
  await contextB.close();
});

test('sending more than the balance shows the insufficient-balance message and sends nothing', async ({
  page,
}) => {
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('short'));
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await fund(page, 'ETH', /(^|[^\d.])1 ETH$/);

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  const recipientField = page.getByLabel('Recipient address');

  // Addresses that are not someone else's wallet are refused as they are typed, with what is wrong.
  await recipientField.fill(`0x${'0'.repeat(40)}`);
  await expect(recipientField).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert')).toHaveText(
    'This is the zero address: nobody can ever spend what is sent to it. Check the address.',
  );
  await snap(page, 'send-zero-address');
  const { localChain } = await page.evaluate(
    async () => (await (await fetch('/api/config')).json()) as { localChain: { usdc: string | null } },
  );
  expect(localChain.usdc).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await recipientField.fill(localChain.usdc!.toLowerCase());
  await expect(page.getByRole('alert')).toHaveText(
    "This is the USDC token contract on Local, not a wallet: what is sent to it is lost. Enter the recipient's wallet address.",
  );
  await recipientField.fill(address);
  await expect(page.getByRole('alert')).toHaveText(
    'This is your own wallet address. Enter the address of the person you pay.',
  );
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toHaveCount(0);
  await expect(recipientField).toBeFocused();

  await recipientField.fill('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
  await expect(recipientField).toHaveAttribute('aria-invalid', 'false');
  await page.getByLabel('Amount (ETH)').fill('2');
  const message = page.getByText(
    'Not enough funds to cover the amount and the network fee. Add funds or send less.',
  );
  await expect(message).toBeVisible();
  // Adding funds is offered right there (the sandbox on-ramp in development).
  const offer = page.getByRole('region', { name: 'Add funds' });
  await expect(offer.getByText('Not enough funds for this. Add some, then try again.')).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Buy' })).toBeVisible();
  await expect(offer.getByRole('button', { name: 'Deposit from exchange' })).toBeVisible();
  await snap(page, 'send-insufficient');
  await page.setViewportSize({ width: 360, height: 740 });
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await snap(page, 'send-form-360');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toHaveCount(0);

  // Max leaves room for the fee: less than the whole balance, and then the message goes.
  await page.getByRole('button', { name: 'Max' }).click();
  const max = Number(await page.getByLabel('Amount (ETH)').inputValue());
  expect(max).toBeGreaterThan(0.99);
  expect(max).toBeLessThan(1);
  await expect(message).toHaveCount(0);

  // The balances are checked again on "Confirm and send": here they dropped after the review.
  await page.getByLabel('Amount (ETH)').fill('0.5');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  await setLocalBalance(page, address, 10n ** 17n);
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(message).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Add funds' }).getByRole('button', { name: 'Buy' }),
  ).toBeVisible();
  await snap(page, 'send-insufficient-at-confirmation');

  // An unknown number says there is no Dial wallet for it.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByLabel('A phone number').check();
  await page.getByRole('textbox', { name: 'Phone number' }).fill(uniqueUkMobile().national);
  await expect(page.getByRole('status', { name: 'Recipient' })).toHaveText(
    'No Dial user has verified that phone number, so there is no wallet to send to. Check the number.',
  );

  // Escape goes back to the wallet, where nothing was sent.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeFocused();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])0\.1 ETH$/);
  await expect(page.getByText('No activity yet')).toBeVisible();
});

/** Sets an account's ETH on the local chain (through the dev JSON-RPC route, from the page's origin). */
async function setLocalBalance(page: Page, address: string, wei: bigint): Promise<void> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'hardhat_setBalance',
    params: [address, `0x${wei.toString(16)}`],
  });
  const answer = await page.evaluate(async (text) => {
    const response = await fetch('/api/dev/chain', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: text,
    });
    return response.json();
  }, body);
  expect(answer).toMatchObject({ result: true });
}

test('the activity list pages with "Show more", newest first', async ({ page }) => {
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('pager'));
  // Eleven transfers recorded as this browser would after sending (the server does not read the chain).
  const recorded = await page.evaluate(async () => {
    const answers: { status: number; id: string }[] = [];
    for (let index = 0; index < 11; index++) {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      const txHash = `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
      const response = await fetch('/api/activity', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          chainId: 31337,
          txHash,
          to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
          asset: 'native',
          amount: String((index + 1) * 1e15),
        }),
      });
      answers.push({ status: response.status, id: ((await response.json()) as { id: string }).id });
    }
    return answers;
  });
  expect(recorded.map((answer) => answer.status)).toEqual(Array(11).fill(201));

  await page.getByRole('button', { name: 'Refresh activity' }).click();
  const items = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(items).toHaveCount(10);
  // Newest first: the last one recorded (0.011 ETH) leads.
  await expect(items.first()).toContainText('−0.011 ETH');
  await expect(items.first()).toContainText('To 0x7099…79C8');
  await expect(items.first()).toContainText('Pending');
  await page.getByRole('button', { name: 'Show more' }).click();
  await expect(items).toHaveCount(11);
  await expect(items.last()).toContainText('−0.001 ETH');
  await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
  await snap(page, 'activity-paged');

  // The oldest (11th) transfer is confirmed; a refresh keeps all eleven shown and says what changed.
  const patched = await page.evaluate(async (id) => {
    const response = await fetch(`/api/activity/${id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ status: 'confirmed' }),
    });
    return response.status;
  }, recorded[0]?.id ?? '');
  expect(patched).toBe(200);
  await page.getByRole('button', { name: 'Refresh activity' }).click();
  await expect(items.last()).toContainText('Confirmed');
  await expect(items).toHaveCount(11);
  await expect(items.last()).toContainText('−0.001 ETH');
  await expect(items.first()).toContainText('Pending');
  await expect(page.getByRole('region', { name: 'Activity' }).getByRole('status')).toHaveText(
    'Sent 0.001 ETH, To 0x7099…79C8: Confirmed',
  );
  // The list is as long again after the send screen (which replaces the wallet screen while open).
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(items.first()).toBeVisible();
  await expect(items).toHaveCount(11);
  await expect(items.last()).toContainText('−0.001 ETH');
});

test('a received transfer the chain does not show is checked again, then labelled "Not verified", never confirmed', async ({
  page,
  browser,
}) => {
  // The list checks again for a minute before it gives up on the transfer.
  test.setTimeout(150_000);
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await pageB.goto('/');
  const addressB = await signInWithEmail(pageB, uniqueEmail('payee'));

  // A reports a "confirmed" transfer to B that never happened on the chain.
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('liar'));
  const status = await page.evaluate(async (to) => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const txHash = `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
    const headers = { 'Content-Type': 'application/json' };
    const created = await fetch('/api/activity', {
      method: 'POST',
      headers,
      body: JSON.stringify({ chainId: 31337, txHash, to, asset: 'usdc', amount: '1000000000' }),
    });
    const { id } = (await created.json()) as { id: string };
    const patched = await fetch(`/api/activity/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ status: 'confirmed' }),
    });
    return patched.status;
  }, addressB);
  expect(status).toBe(200);

  await pageB.getByRole('button', { name: 'Refresh activity' }).click();
  const item = pageB.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(item).toHaveCount(1);
  await expect(item).toContainText('+1,000 USDC');
  // Not found on the chain: checked again for about a minute (it may not be mined yet), never confirmed.
  await expect(item).toContainText('Not on the chain yet · checking again…');
  await expect(item).not.toContainText('Confirmed');
  await snap(pageB, 'activity-checking-again');
  await expect(item).toContainText('Not verified: reported by the sender', { timeout: 90_000 });
  await expect(item).not.toContainText('Confirmed');
  await snap(pageB, 'activity-not-verified');
  await contextB.close();
});
