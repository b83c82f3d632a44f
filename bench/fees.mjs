// The sponsored send of issue 29, against an ordinary one, in Chromium on Dial's production build in
// development mode with its local chain and real bundler (Alto), as the e2e tests run it. Two servers run
// side by side: one whose operator pays no fees (`SPONSOR_CALLS=off`: the wallet pays the fee in ETH, a plain
// EIP-1559 transaction) and one with its default sponsorship (a user operation through the bundler with Dial's
// paymaster, the wallet holding only USDC). Runs alternate between them.
//
// Each run: a recipient signs up by e-mail and keeps the wallet open; a new sender signs up, gets test funds
// (USDC, and ETH on the ordinary server), and sends 1 USDC to the recipient's address. The figure is the time
// from the click on "Confirm and send" in the sender's page to the recipient's page announcing "Received 1 USDC"
// (its live update, pushed by the server once it read the transfer from the chain), both read as epoch
// milliseconds from the pages' own clocks (one browser). The goal: the sponsored send's median within 2× the
// ordinary send's median.
//
// Run alone: `node bench/fees.mjs` (5 runs of each), `--runs N`, or `--smoke` (one run of each, for CI: it
// fails only when something does not work, never on the goal). Imported: `benchFees(options)` returns the rows.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { outbox, startDevServer, waitForCode } from './devServer.mjs';
import { formatRows, launchChromium, median, parseOptions, ROOT, round2, SERVER_MAIN } from './lib.mjs';

const WEB_INDEX = join(ROOT, 'apps/web/dist/index.html');
const GOAL_RATIO = 2;

/**
 * Measures the figure.
 *
 * @param {{ runs?: number, smoke?: boolean, log?: (line: string) => void }} [options]
 * @returns {Promise<Array<{figure: string, value: number, reference: number, ratio: number, goal: string,
 *   met: boolean, unit: string}>>}
 */
export async function benchFees({ runs = 5, smoke = false, log } = {}) {
  const say = log ?? ((line) => process.stderr.write(`${line}\n`));
  const count = smoke ? 1 : runs;
  for (const file of [SERVER_MAIN, WEB_INDEX]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  const [ordinary, sponsored] = await Promise.all([
    startDevServer({ env: { SPONSOR_CALLS: 'off' } }),
    startDevServer(),
  ]);
  const browser = await launchChromium();
  try {
    const times = { ordinary: [], sponsored: [] };
    for (let run = 1; run <= count; run++) {
      for (const [kind, server] of [
        ['ordinary', ordinary],
        ['sponsored', sponsored],
      ]) {
        const time = await oneSend(browser, server.origin, kind === 'sponsored', run);
        times[kind].push(time);
        say(
          `run ${run}/${count}, ${kind}: "Confirm and send" → recipient's live update ${Math.round(time)} ms`,
        );
      }
    }
    const value = median(times.sponsored);
    const reference = median(times.ordinary);
    return [
      {
        figure:
          `sponsored send (user operation, fee paid by the operator, wallet without ETH): "Confirm and send" → ` +
          `the recipient's live update (median of ${count}; reference: an ordinary send, fee paid in ETH)`,
        value: Math.round(value),
        reference: Math.round(reference),
        ratio: round2(value / reference),
        goal: `≤ ${GOAL_RATIO}× the ordinary send`,
        met: value <= GOAL_RATIO * reference,
        unit: 'ms',
      },
    ];
  } finally {
    await browser.close();
    await Promise.all([ordinary.stop(), sponsored.stop()]);
  }
}

/** One send of 1 USDC from a new sender to a new recipient; the time from the click to the live update. */
async function oneSend(browser, origin, sponsored, run) {
  const stamp = `${Date.now()}.${run}.${Math.floor(Math.random() * 1e6)}`;
  const recipientContext = await browser.newContext({ locale: 'en-GB', baseURL: origin });
  const senderContext = await browser.newContext({ locale: 'en-GB', baseURL: origin });
  try {
    const recipient = await recipientContext.newPage();
    const sender = await senderContext.newPage();
    for (const page of [recipient, sender]) page.setDefaultTimeout(60_000);
    const recipientAddress = await signUp(recipient, origin, `bench.fees.to.${stamp}@example.com`);
    await recipient.getByLabel('Network').selectOption({ label: 'Local' });

    await signUp(sender, origin, `bench.fees.from.${stamp}@example.com`);
    await sender.getByLabel('Network').selectOption({ label: 'Local' });
    await fund(sender, 'USDC', /(^|[^\d.])100 USDC$/);
    if (!sponsored) await fund(sender, 'ETH', /(^|[^\d.])1 ETH$/);

    await sender.getByRole('button', { name: 'Send', exact: true }).click();
    await sender.getByLabel('A wallet address').check();
    await sender.getByLabel('Recipient address').fill(recipientAddress);
    await sender.getByLabel('Asset').selectOption({ label: 'USDC' });
    await sender.getByLabel('Amount (USDC)').fill('1');
    const fee = sender.getByRole('status', { name: 'Network fee' });
    await fee.filter({ hasText: sponsored ? /free/i : /up to/ }).waitFor();
    await sender.getByRole('button', { name: 'Review' }).click();
    const confirm = sender.getByRole('button', { name: 'Confirm and send' });
    await confirm.waitFor();
    await sender.waitForLoadState('networkidle');

    // Both pages note epoch times with their own clocks: the click, and the announcement's first appearance.
    await recipient.evaluate(() => {
      window.__benchReceived = new Promise((resolve) => {
        const observer = new MutationObserver(() => {
          const announced = [...document.querySelectorAll('[role="status"]')].some((element) =>
            /Received 1 USDC/.test(element.textContent ?? ''),
          );
          if (announced) {
            observer.disconnect();
            resolve(performance.timeOrigin + performance.now());
          }
        });
        observer.observe(document, { subtree: true, childList: true, characterData: true });
      });
    });
    await sender.evaluate(() => {
      window.__benchClick = null;
      document.addEventListener(
        'click',
        (event) => {
          if (
            event.target instanceof Element &&
            event.target.closest('button')?.textContent === 'Confirm and send'
          )
            window.__benchClick ??= performance.timeOrigin + performance.now();
        },
        true,
      );
    });
    await confirm.click();
    const receivedAt = await recipient.evaluate(() =>
      Promise.race([
        window.__benchReceived,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no live update within 60 s')), 60_000)),
      ]),
    );
    const clickedAt = await sender.evaluate(() => window.__benchClick);
    if (clickedAt === null) throw new Error('the click on "Confirm and send" was not seen');
    if (sponsored) {
      // The sponsored send paid no ETH: the wallet still has none.
      await sender
        .getByRole('status', { name: 'Transfer status' })
        .filter({ hasText: /^Confirmed/ })
        .waitFor();
    }
    return receivedAt - clickedAt;
  } finally {
    await Promise.all([recipientContext.close(), senderContext.close()]);
  }
}

/** Signs up with `email` from the sign-in screen; the new wallet's address. */
async function signUp(page, origin, email) {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByLabel('Email address').fill(email);
  const seen = new Set((await outbox(origin, email)).map((message) => message.id));
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  await page.getByLabel('Verification code').fill(await waitForCode(origin, email, seen));
  const figure = page.getByLabel('Wallet address').filter({ hasText: /0x[0-9a-fA-F]{40}/ });
  await figure.first().waitFor();
  return /0x[0-9a-fA-F]{40}/.exec((await figure.first().textContent()) ?? '')[0];
}

async function fund(page, asset, expected) {
  await page.getByRole('button', { name: `Get test ${asset}` }).click();
  await page
    .getByLabel(asset === 'ETH' ? 'Balance' : 'USDC balance', { exact: true })
    .filter({ hasText: expected })
    .waitFor();
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { smoke = false, runs = 5 } = parseOptions(process.argv.slice(2), {
    '--smoke': ['smoke', 'flag'],
    '--runs': ['runs', 'count'],
  });
  const rows = await benchFees({ runs, smoke });
  console.log(formatRows(rows));
  if (!smoke && rows.some((row) => row.met === false)) process.exitCode = 1;
}
