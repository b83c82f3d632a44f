import { WALLET_PROPOSAL_TTL_SECONDS } from './walletConnectionLimits.js';

/**
 * The error catalogue: every error Dial reports, to people and to API clients, has a code from this list,
 * an HTTP status and a message a person can act on.
 *
 * The catalogue is a `Record<ErrorCode, ErrorSpec>`, so adding a code without its mapping fails to compile.
 */
export type ErrorCode =
  | 'invalid_data'
  | 'invalid_phone'
  | 'invalid_email'
  | 'too_many_requests'
  | 'code_recently_sent'
  | 'max_accounts_reached'
  | 'allowlist_rejected'
  | 'embedded_wallet_already_exists'
  | 'insufficient_balance'
  | 'invalid_code'
  | 'code_expired'
  | 'code_attempts_exceeded'
  | 'unauthorized'
  | 'forbidden_origin'
  | 'not_found'
  | 'wallet_not_found'
  | 'delivery_failed'
  | 'chain_unavailable'
  | 'device_share_missing'
  | 'wallet_mismatch'
  | 'network_error'
  | 'recipient_not_found'
  | 'recovery_not_set_up'
  | 'wrong_recovery_password'
  | 'stale_share_generation'
  | 'reauthentication_required'
  | 'unsupported_chain'
  | 'user_rejected'
  | 'onramp_unavailable'
  | 'currency_not_supported'
  | 'rate_limit_unavailable'
  | 'not_ready'
  | 'wallet_proof_invalid'
  | 'account_proof_required'
  | 'method_outranked'
  | 'change_not_pending'
  | 'wallet_proof_expired'
  | 'wallet_address_taken'
  | 'not_your_transaction'
  | 'transfer_mismatch'
  | 'siwe_message_invalid'
  | 'siwe_domain_mismatch'
  | 'siwe_uri_mismatch'
  | 'siwe_chain_unsupported'
  | 'siwe_issued_at_invalid'
  | 'siwe_expired'
  | 'siwe_not_yet_valid'
  | 'siwe_nonce_invalid'
  | 'siwe_nonce_used'
  | 'siwe_signature_invalid'
  | 'passkey_challenge_invalid'
  | 'passkey_invalid'
  | 'passkey_unknown'
  | 'method_taken'
  | 'method_already_linked'
  | 'last_method'
  | 'methods_limit_reached'
  | 'device_not_found'
  | 'device_removed'
  | 'devices_limit_reached'
  | 'device_link_not_found'
  | 'device_link_not_claimed'
  | 'proof_of_work_required'
  | 'method_not_allowed'
  | 'request_timeout'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'headers_too_large'
  | 'walletconnect_proposal_expired'
  | 'walletconnect_request_expired'
  | 'walletconnect_session_expired'
  | 'walletconnect_unavailable'
  | 'too_many_streams'
  | 'sponsor_unavailable'
  | 'sponsor_not_allowed'
  | 'sponsor_account_limit'
  | 'sponsor_daily_cap'
  | 'bundler_unavailable'
  | 'bundler_method_not_allowed'
  | 'internal_error';

/** What the catalogue holds for one code. */
export interface ErrorSpec {
  /** The HTTP status the API answers with. */
  readonly status: number;
  /** A message a person can act on, shown by the web app as it is. */
  readonly message: string;
}

/** Every error code with its HTTP status and message. */
export const ERROR_CATALOGUE: Readonly<Record<ErrorCode, ErrorSpec>> = {
  invalid_data: {
    status: 400,
    message: 'Some of the information sent is not valid. Check it and try again.',
  },
  invalid_phone: {
    status: 400,
    message: 'That phone number is not valid for the chosen country. Check the number and the country.',
  },
  invalid_email: { status: 400, message: 'That e-mail address is not valid. Check it and try again.' },
  too_many_requests: { status: 429, message: 'Too many attempts. Wait a little, then try again.' },
  code_recently_sent: {
    status: 429,
    message: 'A code was sent a moment ago: enter it, or wait to ask for a new one.',
  },
  max_accounts_reached: {
    status: 403,
    message: 'This Dial server has reached its limit of accounts, so new sign-ups are closed for now.',
  },
  allowlist_rejected: {
    status: 403,
    message:
      'Sign-ups on this Dial server are by invitation only, and this number or address is not on the list.',
  },
  embedded_wallet_already_exists: {
    status: 409,
    message: 'This account already has a wallet. Sign in again to open it.',
  },
  insufficient_balance: {
    status: 400,
    message: 'Not enough funds to cover the amount and the network fee. Add funds or send less.',
  },
  invalid_code: { status: 400, message: 'That code is not right. Check the latest message and try again.' },
  code_expired: {
    status: 400,
    message: 'This code has expired or was already used. Request a new code.',
  },
  code_attempts_exceeded: {
    status: 400,
    message: 'Too many wrong codes. This code no longer works: request a new one.',
  },
  unauthorized: { status: 401, message: 'You are signed out. Sign in to continue.' },
  forbidden_origin: {
    status: 403,
    message: 'This request came from another site and was refused. Open Dial directly and try again.',
  },
  not_found: { status: 404, message: 'That was not found.' },
  wallet_not_found: { status: 404, message: 'This account has no wallet yet.' },
  delivery_failed: {
    status: 502,
    message: 'The code could not be sent just now. Check the number or address, then try again.',
  },
  chain_unavailable: {
    status: 503,
    message: 'The network could not be reached. Check your connection or pick another network.',
  },
  device_share_missing: {
    status: 409,
    message:
      'This browser does not hold your wallet key share. Open Dial in the browser where you created your wallet.',
  },
  wallet_mismatch: {
    status: 409,
    message:
      'The key share on this browser does not match your wallet, so it was not opened. Nothing was changed.',
  },
  network_error: { status: 503, message: 'Dial could not be reached. Check your connection and try again.' },
  recipient_not_found: {
    status: 404,
    message:
      'No Dial user has verified that phone number, so there is no wallet to send to. Check the number.',
  },
  recovery_not_set_up: {
    status: 404,
    message:
      'This browser does not hold your wallet key share and recovery was never set up, so the wallet cannot be opened here. Open Dial in the browser where you created your wallet.',
  },
  wrong_recovery_password: {
    status: 400,
    message: 'That recovery password is not right. Check it and try again.',
  },
  stale_share_generation: {
    status: 409,
    message: 'Your wallet keys were changed from another device. Reload and try again.',
  },
  reauthentication_required: {
    status: 403,
    message: 'For your safety, confirm it is you with a new one-time code first.',
  },
  unsupported_chain: {
    status: 400,
    message: 'That network is not supported by this wallet. Pick one of the listed networks.',
  },
  user_rejected: { status: 400, message: 'The request was cancelled.' },
  onramp_unavailable: {
    status: 503,
    message: 'The payment provider could not be reached just now. Try again in a moment.',
  },
  currency_not_supported: {
    status: 400,
    message: 'Prices are not available in that currency on this Dial server. Use US dollars (USD).',
  },
  rate_limit_unavailable: {
    status: 503,
    message: 'Dial could not check this request just now. Try again in a moment.',
  },
  not_ready: {
    status: 503,
    message: 'Dial cannot reach one of its services just now. Try again in a moment.',
  },
  wallet_proof_invalid: {
    status: 403,
    message:
      "Your wallet's key did not confirm this change, so nothing was changed. Open Dial in the browser that holds your wallet and try again.",
  },
  account_proof_required: {
    status: 403,
    message:
      "This change needs your wallet's confirmation: open Dial in a browser that holds your wallet (or recover it there) and try again.",
  },
  method_outranked: {
    status: 403,
    message:
      'A sign-in method linked without your wallet’s confirmation cannot remove one that was. Confirm with your wallet to remove it.',
  },
  change_not_pending: {
    status: 409,
    message: 'That change is no longer waiting: it was already made, cancelled or refused.',
  },
  wallet_proof_expired: {
    status: 400,
    message: 'This confirmation expired or was already used, so nothing was changed. Try again.',
  },
  wallet_address_taken: {
    status: 409,
    message: 'This wallet is already registered to another Dial account, so it was not added to this one.',
  },
  not_your_transaction: {
    status: 403,
    message:
      'The network shows this transaction was sent from another wallet, so it was not added to your activity.',
  },
  transfer_mismatch: {
    status: 400,
    message:
      'The network shows this transaction with another recipient, amount or asset, so it was not added to your activity.',
  },
  siwe_message_invalid: {
    status: 400,
    message:
      'That sign-in message is not a valid Sign-In with Ethereum message. Start signing in with your wallet again.',
  },
  siwe_domain_mismatch: {
    status: 400,
    message:
      'That sign-in message was made for another website, so it was refused. Sign in from this page again.',
  },
  siwe_uri_mismatch: {
    status: 400,
    message:
      'That sign-in message names another web address, so it was refused. Sign in from this page again.',
  },
  siwe_chain_unsupported: {
    status: 400,
    message:
      'That sign-in message is for a network Dial does not support. Switch your wallet to a supported network and try again.',
  },
  siwe_issued_at_invalid: {
    status: 400,
    message:
      "That sign-in message's time is wrong: it was made in the future or too long ago. Check your device's clock and sign in again.",
  },
  siwe_expired: {
    status: 400,
    message: 'That sign-in message has expired. Sign in with your wallet again.',
  },
  siwe_not_yet_valid: {
    status: 400,
    message: "That sign-in message is not valid yet. Check your device's clock and sign in again.",
  },
  siwe_nonce_invalid: {
    status: 400,
    message:
      'That sign-in message was not started on this browser, or was started too long ago. Sign in with your wallet again.',
  },
  siwe_nonce_used: {
    status: 400,
    message: 'That sign-in message was already used. Sign in with your wallet again.',
  },
  siwe_signature_invalid: {
    status: 401,
    message:
      'The signature does not match the wallet in the sign-in message. Sign again with the same wallet.',
  },
  passkey_challenge_invalid: {
    status: 400,
    message: 'That passkey request expired or was already used. Try your passkey again.',
  },
  passkey_invalid: {
    status: 401,
    message:
      'Your passkey could not be verified (it was made for another site, skipped the fingerprint, face or screen lock, or its signature did not hold). Try again.',
  },
  passkey_unknown: {
    status: 401,
    message:
      'That passkey is not a sign-in method of any Dial account here. Sign in another way, or use another passkey.',
  },
  method_taken: {
    status: 409,
    message:
      'That phone number, e-mail address or wallet is already a sign-in method of another Dial account.',
  },
  method_already_linked: {
    status: 409,
    message: 'That is already one of your sign-in methods.',
  },
  last_method: {
    status: 409,
    message: 'That is your only way to sign in, so it cannot be removed. Add another sign-in method first.',
  },
  methods_limit_reached: {
    status: 409,
    message: 'You have as many sign-in methods as this Dial server allows. Remove one before adding another.',
  },
  device_not_found: {
    status: 404,
    message:
      'This browser is not one of the devices that can open your wallet. Add it from a device that can (Settings › Devices › Add a device), or recover your wallet here.',
  },
  device_removed: {
    status: 403,
    message:
      'This browser was removed from your wallet, so its key share no longer opens it. Add it again from another device, or recover your wallet here.',
  },
  device_link_not_found: {
    status: 404,
    message:
      'That code does not match a device link of your account any more: codes last 5 minutes and work once. Start again on your other device.',
  },
  device_link_not_claimed: {
    status: 409,
    message: 'The new device has not entered the code yet. Enter it there first, then confirm here.',
  },
  devices_limit_reached: {
    status: 409,
    message:
      'Your wallet is on as many devices as this Dial server allows. Remove one in Settings › Devices first.',
  },
  proof_of_work_required: {
    status: 403,
    message:
      'Many codes were asked for this number or address just now, so this browser has to do a short check first. Try again.',
  },
  method_not_allowed: {
    status: 405,
    message: 'Dial does not answer this kind of request. Use one of the methods listed in the Allow header.',
  },
  request_timeout: {
    status: 408,
    message:
      'The request took too long to arrive, so the connection was closed. Check your connection and try again.',
  },
  payload_too_large: {
    status: 413,
    message: 'The request is larger than Dial accepts. Send less data.',
  },
  unsupported_media_type: {
    status: 415,
    message:
      'Dial reads request bodies as JSON only. Send the body as JSON with Content-Type: application/json.',
  },
  headers_too_large: {
    status: 431,
    message:
      "The request headers or the address are too large. Clear this site's cookies or shorten the address, then try again.",
  },
  walletconnect_proposal_expired: {
    status: 408,
    message: `Your wallet did not approve the connection within ${WALLET_PROPOSAL_TTL_SECONDS / 60} minutes, so the QR code has expired. Try again to get a new one.`,
  },
  walletconnect_request_expired: {
    status: 408,
    message: 'Your wallet did not answer in time. Try again, and confirm the request in your wallet.',
  },
  walletconnect_session_expired: {
    status: 400,
    message: 'The connection to your wallet has expired. Connect your wallet again.',
  },
  walletconnect_unavailable: {
    status: 503,
    message:
      "WalletConnect's relay could not be reached, so your wallet cannot be connected. Try again in a moment.",
  },
  too_many_streams: {
    status: 429,
    message: 'Live updates are open in too many tabs. Close one, then reload.',
  },
  sponsor_unavailable: {
    status: 400,
    message:
      'Network fees are not paid for you on this network. Send with ETH for the fee, or choose another network.',
  },
  sponsor_not_allowed: {
    status: 403,
    message:
      'This send cannot have its network fee paid for you: only transfers from your own wallet that this ' +
      'service covers are. Send with ETH for the fee instead.',
  },
  sponsor_account_limit: {
    status: 429,
    message:
      "You have used all of today's free sends. Send with ETH for the fee, or wait until tomorrow (UTC).",
  },
  sponsor_daily_cap: {
    status: 429,
    message:
      'Free network fees are used up for today on this network. Send with ETH for the fee, or try again tomorrow (UTC).',
  },
  bundler_unavailable: {
    status: 400,
    message: 'Smart-account sends are not available on this network. Send an ordinary transaction instead.',
  },
  bundler_method_not_allowed: {
    status: 400,
    message: 'That request is not passed on to the bundler. Only sending and reading user operations is.',
  },
  internal_error: { status: 500, message: 'Something went wrong on our side. Try again in a moment.' },
};

/** Every code of the catalogue, for validation and documentation. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** Whether a value is one of the catalogue's codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}

/** The shape the API answers errors with. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

/** Options for a {@link DialError}. */
export interface DialErrorOptions {
  /** A more precise message; the catalogue's message is used when it is left out. */
  message?: string;
  /** Detail for logs and developers, never shown as the message. */
  details?: string;
  /** The error that caused this one. */
  cause?: unknown;
  /**
   * For `too_many_requests` and `code_recently_sent`: seconds until a retry can succeed; for `rate_limit_unavailable`: how long to
   * back off. The API sends it as `Retry-After`.
   */
  retryAfterSeconds?: number;
}

/**
 * An error from the catalogue, carrying its code, HTTP status and a message a person can act on.
 *
 * @example
 * ```ts
 * throw new DialError('invalid_data', { details: 'phone has letters' });
 * ```
 */
export class DialError extends Error {
  override readonly name = 'DialError';
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, options: DialErrorOptions = {}) {
    const spec = ERROR_CATALOGUE[code];
    super(
      options.message ?? spec.message,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.status = spec.status;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** The body the API answers this error with. */
  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

/** Whether a value is a {@link DialError}, optionally of one code. */
export function isDialError(value: unknown, code?: ErrorCode): value is DialError {
  return value instanceof DialError && (code === undefined || value.code === code);
}

/**
 * Reads an API error body into a {@link DialError}. Anything that is not a catalogue error becomes
 * `internal_error` (or `network_error` when there is no body at all).
 */
export function errorFromBody(body: unknown, status?: number): DialError {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const error = (body as { error: unknown }).error;
    if (typeof error === 'object' && error !== null) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      if (isErrorCode(code)) {
        return new DialError(code, typeof message === 'string' ? { message } : {});
      }
    }
  }
  if (status === undefined || status === 0) return new DialError('network_error');
  return new DialError(status === 429 ? 'too_many_requests' : 'internal_error', {
    details: `HTTP ${status}`,
  });
}
