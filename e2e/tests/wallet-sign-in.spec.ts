import { expect, type Page, test } from '@playwright/test';
import { hexToString, parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { snap } from './steps.js';
import { installTestWallet, LOCAL_CHAIN_ID, localBalance, type TestWallet } from './testWallet.js';

/** Signs in with the test wallet from the sign-in screen and waits for the wallet home. */
async function signInWithWallet(page: Page, name = 'Test Wallet'): Promise<void> {
  await page.goto('/');
  const choices = page.getByRole('region', { name: 'Or continue with a wallet' });
  await choices.getByRole('button', { name }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
}

/** Sends `amount` ETH on the local chain to `to` from the send screen, and waits for it to be confirmed. */
async function sendEth(page: Page, to: string, amount: string): Promise<void> {
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByLabel('A wallet address').check();
  await page.getByLabel('Recipient address').fill(to);
  await page.getByLabel('Amount (ETH)').fill(amount);
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByRole('heading', { name: 'Check and confirm' })).toBeFocused();
  await page.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(page.getByRole('status', { name: 'Transfer status' })).toHaveText(/^Confirmed/, {
    timeout: 30_000,
  });
}

function methods(wallet: TestWallet): string[] {
  return wallet.calls.map((call) => call.method);
}

test('signs up with a browser wallet (EIP-6963, Sign-In with Ethereum): its address and balance are the account’s, no embedded wallet is made', async ({
  page,
}) => {
  const wallet = await installTestWallet(page);
  await wallet.fund(parseEther('2'));
  const walletRequests: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/wallet') walletRequests.push(request.method());
  });

  await page.goto('/');
  const choices = page.getByRole('region', { name: 'Or continue with a wallet' });
  const button = choices.getByRole('button', { name: 'Test Wallet' });
  await expect(button).toBeVisible();
  // The icon the wallet announced, as it gave it (a data: URI: nothing is fetched for it).
  await expect(button.locator('img')).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/);
  await snap(page, 'wallet-sign-in-choices');
  // Keyboard: the wallet's button is reached with Tab and pressed with Enter.
  await button.focus();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(wallet.address);
  await expect(page.getByText('This is your own wallet (Test Wallet)')).toBeVisible();
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])2 ETH$/);
  await snap(page, 'wallet-sign-in-home');

  // The wallet was asked for its account, then signed one EIP-4361 message for this site and the local chain.
  expect(methods(wallet)).toEqual(['eth_requestAccounts', 'eth_chainId', 'personal_sign']);
  const [hexMessage, signer] = wallet.calls[2]!.params as [`0x${string}`, string];
  expect(signer).toBe(wallet.address);
  const message = hexToString(hexMessage);
  expect(message).toMatch(/^localhost:\d+ wants you to sign in with your Ethereum account:\n/);
  expect(message).toContain(`\n${wallet.address}\n`);
  expect(message).toContain(`\nChain ID: ${LOCAL_CHAIN_ID}\n`);
  expect(message).toMatch(/\nNonce: [0-9a-zA-Z]{16,}\n/);

  // The account's wallet is the person's: no embedded wallet was looked for or made, after a reload neither.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByLabel('Wallet address', { exact: true })).toHaveText(wallet.address);
  expect(walletRequests).toEqual([]);
  const me = await page.evaluate(async () => (await (await fetch('/api/me')).json()) as { user: unknown });
  expect(me.user).toMatchObject({ wallet: { address: wallet.address, kind: 'external' }, phone: null });
});

test('sends ETH through the wallet after a reload: the recipient gets it and the activity shows it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const wallet = await installTestWallet(page);
  await wallet.fund(parseEther('1'));
  await signInWithWallet(page);
  // Found again after a reload, among the wallets that announce themselves, by its account.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);

  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const sends = wallet.calls.length;
  await sendEth(page, recipient, '0.25');
  await snap(page, 'wallet-send-status');

  expect(await localBalance(recipient)).toBe(parseEther('0.25'));
  expect(methods(wallet).slice(sends)).toContain('eth_sendTransaction');
  expect(methods(wallet).slice(sends)).not.toContain('wallet_sendTransaction');

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  const sent = page.getByRole('list', { name: 'Transfers' }).getByRole('listitem');
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText('Sent');
  await expect(sent).toContainText('−0.25 ETH');
  await expect(sent).toContainText(`To ${recipient.slice(0, 6)}…${recipient.slice(-4)}`);
  await expect(sent).toContainText('Confirmed');
});

test('a wallet that only knows wallet_sendTransaction (4200 for eth_sendTransaction) sends through it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const wallet = await installTestWallet(page, { name: 'Plain Wallet', walletSendTransactionOnly: true });
  await wallet.fund(parseEther('1'));
  await signInWithWallet(page, 'Plain Wallet');
  await page.getByLabel('Network').selectOption({ label: 'Local' });
  await expect(page.getByLabel('Balance', { exact: true })).toHaveText(/(^|[^\d.])1 ETH$/);

  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const sends = wallet.calls.length;
  await sendEth(page, recipient, '0.1');

  expect(await localBalance(recipient)).toBe(parseEther('0.1'));
  const asked = methods(wallet).slice(sends);
  expect(asked.slice(asked.indexOf('eth_sendTransaction'))).toEqual([
    'eth_sendTransaction',
    'wallet_sendTransaction',
  ]);
});

test('refusing in the wallet says the request was cancelled and stays signed out', async ({ page }) => {
  const wallet = await installTestWallet(page, { refuse: ['personal_sign'] });
  await page.goto('/');
  await page
    .getByRole('region', { name: 'Or continue with a wallet' })
    .getByRole('button', { name: 'Test Wallet' })
    .click();
  await expect(page.getByRole('alert')).toHaveText('The request was cancelled.');
  await expect(page.getByRole('heading', { name: 'Sign in to Dial' })).toBeVisible();
  expect(methods(wallet)).toContain('personal_sign');
  const me = await page.evaluate(async () => (await fetch('/api/me')).status);
  expect(me).toBe(401);
});

test('in a browser without the wallet, sending says which wallet to open instead of failing', async ({
  page,
  browser,
}) => {
  const wallet = await installTestWallet(page);
  await wallet.fund(parseEther('1'));
  await signInWithWallet(page);

  // The same session (cookie and storage) in a browser where the wallet app is not installed.
  const elsewhere = await browser.newContext({ storageState: await page.context().storageState() });
  const other = await elsewhere.newPage();
  await other.goto('/');
  await expect(other.getByRole('heading', { name: 'Your wallet' })).toBeVisible({ timeout: 30_000 });
  await other.getByLabel('Network').selectOption({ label: 'Local' });
  await other.getByRole('button', { name: 'Send', exact: true }).click();
  await other.getByLabel('A wallet address').check();
  await other.getByLabel('Recipient address').fill(privateKeyToAccount(generatePrivateKey()).address);
  await other.getByLabel('Amount (ETH)').fill('0.1');
  await other.getByRole('button', { name: 'Review' }).click();
  await other.getByRole('button', { name: 'Confirm and send' }).click();
  await expect(other.getByRole('alert')).toHaveText(
    'Test Wallet is not available in this browser. Open Dial in the browser with Test Wallet, or connect it.',
  );
  await snap(other, 'wallet-send-unavailable');
  await elsewhere.close();
});
