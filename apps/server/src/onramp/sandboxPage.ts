import { escapeHtml, htmlPage } from '../http/htmlPage.js';
import type { SandboxSession, SandboxTokenProblem } from './sandboxSessions.js';

/** The checkout's stylesheet path: a file of its own, since the CSP allows no inline style. */
export const SANDBOX_CSS_PATH = '/onramp/sandbox/checkout.css';

/** The test card the sandbox accepts, and one it declines. */
export const SANDBOX_TEST_CARD = '4242424242424242';
export const SANDBOX_DECLINED_CARD = '4000000000000002';

/** What the checkout page shows besides the order. */
export interface CheckoutPageOptions {
  session: SandboxSession;
  token: string;
  /** How people call the network the user picked, e.g. `Base`. */
  networkName: string;
  /** The form's action. */
  payPath: string;
  /** A problem with what was entered, shown above the form. */
  error?: string;
  /** What was entered, kept when the page is shown again (never the card number's digits beyond the last 4). */
  values?: { expiry?: string };
}

/**
 * The sandbox checkout: the order (asset, network, amount, payment method), and a plain HTML form (no
 * script: it works under the strict CSP) that pays by test card for `buy`, or from a sandbox exchange
 * account for `send`.
 */
export function renderCheckoutPage(options: CheckoutPageOptions): string {
  const { session, token, networkName } = options;
  const buy = session.experience === 'buy';
  const order = `${session.amount} ${session.asset}`;
  const rows: [string, string][] = [
    ['Asset', session.asset],
    ['Network', `${networkName} (credited on the local chain)`],
    ['Amount', order],
    ['Payment method', buy ? 'Card' : 'Exchange account'],
  ];
  const fields = buy
    ? [
        '<p class="hint">Test card: <strong>4242 4242 4242 4242</strong>, any future expiry date, any 3-digit code. 4000 0000 0000 0002 is declined.</p>',
        field('card-number', 'cardNumber', 'Card number', 'cc-number', 'numeric', '', '1234 1234 1234 1234'),
        field(
          'expiry',
          'expiry',
          'Expiry date (MM/YY)',
          'cc-exp',
          'numeric',
          options.values?.expiry ?? '',
          'MM/YY',
        ),
        field('cvc', 'cvc', 'Security code (CVC)', 'cc-csc', 'numeric', '', '123'),
      ].join('\n')
    : [
        '<fieldset>',
        '<legend>Send from</legend>',
        '<label class="choice"><input type="radio" name="account" value="sandbox-exchange" checked> Sandbox exchange account (test balance)</label>',
        '</fieldset>',
      ].join('\n');
  return page(
    buy ? 'Buy crypto' : 'Deposit from exchange',
    [
      '<p class="banner" role="note">Sandbox: credits test funds on the local chain. No real payment is made.</p>',
      `<h1>${buy ? 'Buy' : 'Deposit'} ${escapeHtml(order)}</h1>`,
      '<h2>Your order</h2>',
      '<dl class="order">',
      ...rows.map(([term, value]) => `<dt>${term}</dt><dd>${escapeHtml(value)}</dd>`),
      '</dl>',
      options.error === undefined
        ? ''
        : `<p class="error" role="alert" id="form-error">${escapeHtml(options.error)}</p>`,
      `<form method="post" action="${escapeHtml(options.payPath)}"${options.error === undefined ? '' : ' aria-describedby="form-error"'}>`,
      `<input type="hidden" name="token" value="${escapeHtml(token)}">`,
      fields,
      `<button type="submit">${buy ? `Pay ${escapeHtml(order)}` : `Send ${escapeHtml(order)}`}</button>`,
      '</form>',
    ].join('\n'),
  );
}

const PROBLEMS: Record<SandboxTokenProblem | 'altered', { title: string; text: string }> = {
  unknown: {
    title: 'Payment link not recognised',
    text: 'This payment link was not issued by this Dial server. Go back to Dial and start again.',
  },
  expired: {
    title: 'Payment link expired',
    text: 'Payment links last 5 minutes and this one has expired. Nothing was charged. Go back to Dial and start again.',
  },
  used: {
    title: 'Payment link already used',
    text: 'This payment link was already used. Go back to Dial to see your balance, or start a new purchase.',
  },
  altered: {
    title: 'Payment link changed',
    text: 'This payment link does not match the order it was issued for, so it was refused. Go back to Dial and start again.',
  },
};

/** HTTP statuses of the problem pages. */
export const PROBLEM_STATUS: Record<SandboxTokenProblem | 'altered', number> = {
  unknown: 404,
  expired: 410,
  used: 409,
  altered: 400,
};

/** A page saying why a token cannot be used, with a way back to the app. */
export function renderProblemPage(problem: SandboxTokenProblem | 'altered', appUrl: string): string {
  const { title, text } = PROBLEMS[problem];
  return renderMessagePage(title, text, appUrl);
}

/** A page with a message and a link back to the app. */
export function renderMessagePage(title: string, text: string, appUrl: string): string {
  return page(
    title,
    [
      '<p class="banner" role="note">Sandbox: credits test funds on the local chain.</p>',
      `<h1>${escapeHtml(title)}</h1>`,
      `<p role="alert">${escapeHtml(text)}</p>`,
      `<p><a href="${escapeHtml(appUrl)}">Return to Dial</a></p>`,
    ].join('\n'),
  );
}

function field(
  id: string,
  name: string,
  label: string,
  autocomplete: string,
  inputMode: string,
  value: string,
  placeholder: string,
): string {
  return (
    `<p class="field"><label for="${id}">${label}</label>` +
    `<input id="${id}" name="${name}" autocomplete="${autocomplete}" inputmode="${inputMode}" required` +
    ` value="${escapeHtml(value)}" placeholder="${escapeHtml(placeholder)}"></p>`
  );
}

function page(title: string, body: string): string {
  return htmlPage({
    title: `${title} · Dial sandbox checkout`,
    head: [
      // The server's no-referrer policy makes browsers send `Origin: null` with a form post, which the
      // origin check refuses; strict-origin sends our origin, and never this page's path or query (the token).
      '<meta name="referrer" content="strict-origin">',
      `<link rel="stylesheet" href="${SANDBOX_CSS_PATH}">`,
    ],
    body: [body],
  });
}

/** The checkout's styles: readable at 360 px, large touch targets, visible focus. */
export const CHECKOUT_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1a1a2e;background:#f4f5fb}
main{max-width:28rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1rem;margin:1rem 0 .25rem}
.banner{background:#fff4d6;border:1px solid #e0b43c;border-radius:.5rem;padding:.5rem .75rem;margin:0}
.order{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;background:#fff;border-radius:.5rem;padding:.75rem;margin:0 0 1rem}
.order dt{color:#555}
.order dd{margin:0;font-weight:600}
form{background:#fff;border-radius:.5rem;padding:.75rem}
.field{display:flex;flex-direction:column;gap:.25rem;margin:0 0 .75rem}
.field input{font:inherit;padding:.6rem;border:1px solid #888;border-radius:.4rem}
fieldset{border:1px solid #ccc;border-radius:.4rem;margin:0 0 .75rem}
.choice{display:flex;gap:.5rem;align-items:center;min-height:2.75rem}
.hint{color:#444;font-size:.9rem}
.error{color:#a00020;font-weight:600}
button{width:100%;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:.5rem;background:#3344dd;color:#fff;cursor:pointer}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #3344dd;outline-offset:2px}
`;
