import type { Channel } from '@dial/core';
import type { AppConfig } from '../config/index.js';
import {
  createOutboxTransport,
  createSmtpTransport,
  createTwilioTransport,
  type MessageTransport,
  type OutboxStore,
} from '../delivery/index.js';

/** The transports of both channels, and what to close on shutdown. */
export interface ChosenTransports {
  transports: Partial<Record<Channel, MessageTransport>>;
  close(): void;
}

/**
 * Picks how codes travel: e-mail through SMTP when `SMTP_URL` is set, SMS through Twilio when its three
 * settings are; otherwise the dev outbox, outside production. In production a channel without a provider
 * has no transport, and `otp/start` answers that its sign-in is not available.
 */
export function chooseTransports(config: AppConfig, outbox: OutboxStore): ChosenTransports {
  const production = config.environment === 'production';
  // The outbox prints each message (with its code) to the terminal in development; tests stay quiet.
  const outboxTransport = production
    ? undefined
    : createOutboxTransport(outbox, config.environment === 'test' ? () => {} : undefined);

  const smtp =
    config.mail.smtpUrl === undefined
      ? undefined
      : createSmtpTransport({ url: config.mail.smtpUrl, from: config.mail.from, pool: true });
  const twilio =
    config.twilio === undefined
      ? undefined
      : createTwilioTransport({
          accountSid: config.twilio.accountSid,
          authToken: config.twilio.authToken,
          from: config.twilio.from,
          ...(config.twilio.apiUrl === undefined ? {} : { apiUrl: config.twilio.apiUrl }),
        });

  const transports: Partial<Record<Channel, MessageTransport>> = {};
  const email = smtp ?? outboxTransport;
  const sms = twilio ?? outboxTransport;
  if (email !== undefined) transports.email = email;
  if (sms !== undefined) transports.sms = sms;
  return { transports, close: () => smtp?.close() };
}
