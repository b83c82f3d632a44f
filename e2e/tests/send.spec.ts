import { expect, type Page, test } from '@playwright/test';
import { useUpFreeSends } from './database.js';
import {
  enterCodeAndOpenWallet,
  requestCode,
  signInWithEmail,
  snap,
  uniqueEmail,
  uniqueUkMobile,
} from './steps.js';

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
  // A pays the fee itself (today's free sends used up): the ordinary EIP-1559 transaction, fee in ETH.
  useUpFreeSends(addressA);
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
  // The history also lists the test funds (two entries): the transfer is the one sent.
  const listed = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(listed.filter({ hasText: 'Test funds' })).toHaveCount(2);
  const sent = listed.filter({ hasText: 'Sent' });
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

  // B holds USDC but no ETH: the operator pays B's fee (sponsored on the local chain), so nothing is short.
  await pageB.getByRole('button', { name: 'Send', exact: true }).click();
  await pageB.getByLabel('A wallet address').check();
  await pageB.getByLabel('Recipient address').fill(addressA);
  await pageB.getByLabel('Asset').selectOption({ label: 'USDC' });
  await pageB.getByLabel('Amount (USDC)').fill('1');
  await expect(pageB.getByRole('status', { name: 'Network fee' })).toHaveText(
    'Network fee: free, paid by localhost',
  );
  await expect(pageB.getByRole('button', { name: 'Review' })).toBeEnabled();
  await contextB.close();
});

test('sending more than the balance shows the insufficient-balance message and sends nothing', async ({
  page,
}) => {
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('short'));
  // The wallet pays its own fee (today's free sends used up), so Max leaves room for it.
  useUpFreeSends(address);
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
  const message = page.getByText(/^This wallet has [\d.]+ ETH on Local, less than the [\d.]+ ETH to send\.$/);
  await expect(page.getByText('This wallet has 1 ETH on Local, less than the 2 ETH to send.')).toBeVisible();
  // Adding funds is offered right there, for the asset that is short (the sandbox on-ramp in development).
  const offer = page.getByRole('region', { name: 'Add funds' });
  await expect(offer.getByText('Add ETH on Local, then try again.')).toBeVisible();
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
  await expect(
    page.getByText('This wallet has 0.1 ETH on Local, less than the 0.5 ETH to send.'),
  ).toBeVisible();
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
  // Only the test funds are listed: nothing was sent.
  const listed = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('Test funds');
});

/** Calls the local chain through the dev JSON-RPC route, from the page's origin (a signed-in session). */
async function devChain(page: Page, method: string, params: unknown[]): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const answer = await page.evaluate(async (text) => {
    const response = await fetch('/api/dev/chain', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: text,
    });
    return (await response.json()) as { result?: unknown; error?: unknown };
  }, body);
  expect(answer.error).toBeUndefined();
  return answer.result;
}

/** Sets an account's ETH on the local chain. */
async function setLocalBalance(page: Page, address: string, wei: bigint): Promise<void> {
  expect(await devChain(page, 'hardhat_setBalance', [address, `0x${wei.toString(16)}`])).toBe(true);
}

test('the activity list pages with "Show more", newest first, and says when a listed transfer settles', async ({
  page,
}) => {
  await page.goto('/');
  const address = await signInWithEmail(page, uniqueEmail('pager'));
  // An ordinary transaction (the wallet pays its fee), which the held-back chain keeps pending.
  useUpFreeSends(address);
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await setLocalBalance(page, address, 10n ** 18n);
  await page.getByRole('button', { name: 'Refresh balance' }).click();
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);

  // The oldest transfer is real, sent through the app while the chain holds back its blocks: it stays
  // pending, on the chain and on the server, until a block is mined.
  await devChain(page, 'evm_setAutomine', [false]);
  try {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByLabel('A wallet address').check();
    await page.getByLabel('Recipient address').fill('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    await page.getByLabel('Amount (ETH)').fill('0.001');
    await page.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('button', { name: 'Confirm and send' }).click();
    await expect(page.getByRole('status', { name: 'Transfer status' })).toContainText('Pending');
    await page.getByRole('button', { name: 'Back to wallet' }).click();
    await expect(page.getByRole('heading', { name: 'Your wallet', exact: true })).toBeVisible();

    // Ten more recorded as a browser would after sending: made up, so the chain never proves them and they
    // stay pending for their sender (their recipient never sees them).
    const recorded = await page.evaluate(async () => {
      const statuses: number[] = [];
      for (let index = 1; index < 11; index++) {
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
        statuses.push(response.status);
      }
      return statuses;
    });
    expect(recorded).toEqual(Array(10).fill(201));

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
    await expect(items.last()).toContainText('Pending');
    await expect(page.getByRole('button', { name: 'Show more' })).toHaveCount(0);
    await snap(page, 'activity-paged');

    // The block is mined: the server's own check (not this browser) confirms the real transfer, and a
    // refresh keeps all eleven shown and says what changed.
    await devChain(page, 'evm_mine', []);
  } finally {
    await devChain(page, 'evm_setAutomine', [true]);
  }
  const items = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh activity' }).click();
    await expect(items.last()).toContainText('Confirmed', { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
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

test('a transfer the chain does not show is never shown to its recipient, whatever its sender reports', async ({
  page,
  browser,
}) => {
  const contextB = await browser.newContext();
  const pageB = await contextB.newPage();
  await pageB.goto('/');
  const addressB = await signInWithEmail(pageB, uniqueEmail('payee'));

  // A records a transfer to B that never happened on the chain, and reports it "confirmed".
  await page.goto('/');
  await signInWithEmail(page, uniqueEmail('liar'));
  const answers = await page.evaluate(async (to) => {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const txHash = `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
    const headers = { 'Content-Type': 'application/json' };
    const created = await fetch('/api/activity', {
      method: 'POST',
      headers,
      body: JSON.stringify({ chainId: 31337, txHash, to, asset: 'usdc', amount: '1000000000' }),
    });
    const { id, status } = (await created.json()) as { id: string; status: string };
    const patched = await fetch(`/api/activity/${id}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ status: 'confirmed' }),
    });
    return {
      created: created.status,
      recordedAs: status,
      patched: (await patched.json()) as { status: string },
    };
  }, addressB);
  // Recorded for its sender, but the server believes no status a browser reports.
  expect(answers).toMatchObject({ created: 201, recordedAs: 'pending', patched: { status: 'pending' } });

  await pageB.getByRole('button', { name: 'Refresh activity' }).click();
  await expect(pageB.getByText('No activity yet')).toBeVisible();
  await expect(pageB.getByRole('list', { name: 'Transfers' }).getByRole('listitem')).toHaveCount(0);
  await snap(pageB, 'activity-made-up-not-shown');
  await contextB.close();
});
