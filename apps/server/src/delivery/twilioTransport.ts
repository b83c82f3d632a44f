import { DeliveryError, type MessageTransport } from './transport.js';

/** Options of {@link createTwilioTransport}. */
export interface TwilioTransportOptions {
  /** `AC…` */
  accountSid: string;
  authToken: string;
  /** The sender: an E.164 number, or a Messaging Service SID (`MG…`). */
  from: string;
  /** Defaults to `https://api.twilio.com`; plain `http:` is allowed only for loopback hosts. */
  apiUrl?: string;
  fetch?: typeof fetch;
  /** How long to wait for Twilio, in milliseconds; defaults to 10 000. */
  timeoutMs?: number;
}

const DEFAULT_API_URL = 'https://api.twilio.com';
const DEFAULT_TIMEOUT_MS = 10_000;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The SMS transport: sends `sms` messages with Twilio's Messages API
 * (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`).
 *
 * Twilio's refusals become {@link DeliveryError}s carrying Twilio's error code and message and the HTTP
 * status; the auth token never appears in them.
 *
 * @example
 * const sms = createTwilioTransport({ accountSid: 'AC…', authToken, from: '+15005550006' });
 * await sms.send({ channel: 'sms', to: '+447700900123', subject: '', text: 'Your Dial code is 123456.' });
 */
export function createTwilioTransport(options: TwilioTransportOptions): MessageTransport {
  const { accountSid, authToken, from } = options;
  if (accountSid === '' || authToken === '' || from === '') {
    throw new TypeError('Twilio needs an account SID, an auth token and a sender (from)');
  }
  const endpoint = messagesUrl(options.apiUrl ?? DEFAULT_API_URL, accountSid);
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const authorization = `Basic ${Buffer.from(`${accountSid}:${authToken}`, 'utf8').toString('base64')}`;
  const senderField = from.startsWith('MG') ? 'MessagingServiceSid' : 'From';
  const safe = (text: string) => text.split(authToken).join('[redacted]');

  return {
    name: 'twilio',
    async send(message) {
      if (message.channel !== 'sms') {
        throw new DeliveryError(`The Twilio transport sends SMS only, not ${message.channel} messages`);
      }
      const body = new URLSearchParams([
        ['To', message.to],
        [senderField, from],
        ['Body', message.text],
      ]);
      let status: number;
      let ok: boolean;
      let answer: string;
      try {
        // One signal for the request and reading the answer.
        const response = await doFetch(endpoint, {
          method: 'POST',
          headers: {
            authorization,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: body.toString(),
          redirect: 'error',
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = response.status;
        ok = response.ok;
        answer = await response.text();
      } catch (error) {
        if (error instanceof Error && error.name === 'TimeoutError') {
          throw new DeliveryError(`Twilio did not answer within ${timeoutMs} ms`, { cause: error });
        }
        throw new DeliveryError(safe(`Twilio could not be reached: ${describe(error)}`), { cause: error });
      }
      if (!ok) {
        throw new DeliveryError(safe(refusal(status, answer)), { status });
      }
    },
  };
}

/** `{apiUrl}/2010-04-01/Accounts/{accountSid}/Messages.json`, keeping any path prefix of `apiUrl`. */
function messagesUrl(apiUrl: string, accountSid: string): URL {
  let url: URL;
  try {
    url = new URL(apiUrl);
  } catch {
    throw new TypeError('The Twilio API URL is not a valid URL');
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    // The auth token travels in every request: only over TLS, or to a stand-in on this machine.
    throw new TypeError('The Twilio API URL must use https: (http: only for a loopback host)');
  }
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`;
  url.search = '';
  url.hash = '';
  return url;
}

/** "Twilio refused the message (HTTP 400, error 21211): The 'To' number is not a valid phone number." */
function refusal(status: number, answer: string): string {
  let code: unknown;
  let detail: unknown;
  try {
    const parsed: unknown = JSON.parse(answer);
    if (typeof parsed === 'object' && parsed !== null) {
      ({ code, message: detail } = parsed as { code?: unknown; message?: unknown });
    }
  } catch {
    // Not JSON (a proxy's error page, say): the status is all we report.
  }
  const codePart = typeof code === 'number' || typeof code === 'string' ? `, error ${code}` : '';
  const detailPart = typeof detail === 'string' && detail !== '' ? `: ${detail.slice(0, 500)}` : '';
  return `Twilio refused the message (HTTP ${status}${codePart})${detailPart}`;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // undici reports "fetch failed" and keeps the reason (ECONNREFUSED, ENOTFOUND, …) in `cause`.
  const cause = error.cause;
  const code = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}
