import type { Channel } from '@dial/core';

/** One message to deliver: a one-time code by SMS or e-mail. */
export interface OutboundMessage {
  channel: Channel;
  /** E.164 phone number (`+447700900123`) for SMS, e-mail address for e-mail. */
  to: string;
  /** E-mail subject; transports without subjects (SMS) ignore it. */
  subject: string;
  /** The plain-text body that is delivered. */
  text: string;
  /** The one-time code, only for the dev outbox; real transports never read it. */
  code?: string;
}

/** The one interface through which one-time codes are delivered. */
export interface MessageTransport {
  /** Short name for logs, e.g. `smtp`, `twilio`, `outbox`. */
  readonly name: string;
  /**
   * Delivers one message. Resolves once the provider has accepted it.
   *
   * @throws {DeliveryError} when the provider refuses the message or cannot be reached, or the
   *   transport cannot carry this message (wrong channel).
   */
  send(message: OutboundMessage): Promise<void>;
}

/**
 * A message could not be delivered: the provider refused it or could not be reached.
 *
 * The message is safe to log: it never contains secrets (auth tokens, passwords). `status` is the
 * provider's HTTP status when it answered over HTTP (Twilio); it is not an HTTP status for our client.
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  /** The provider's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, 'cause' in options ? { cause: options.cause } : undefined);
    this.status = options.status;
  }
}
