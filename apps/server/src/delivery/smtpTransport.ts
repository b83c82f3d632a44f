import type { Transporter } from 'nodemailer';
import { DeliveryError, type MessageTransport } from './transport.js';

/** Options of {@link createSmtpTransport}. */
export interface SmtpTransportOptions {
  /** `SMTP_URL`, e.g. `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://user:pass@host:465`. */
  url: string;
  /** `MAIL_FROM`, e.g. `Dial <no-reply@example.com>`. */
  from: string;
  /** Keep connections open between messages (nodemailer's pool). */
  pool?: boolean;
}

/**
 * The e-mail transport: sends `email` messages (subject and plain text) through an SMTP server.
 *
 * Errors become {@link DeliveryError}s whose message carries the server's reply but never the URL's
 * password. Call `close()` on shutdown to end pooled connections.
 *
 * @example
 * const mail = createSmtpTransport({ url: process.env.SMTP_URL, from: process.env.MAIL_FROM });
 * await mail.send({ channel: 'email', to: 'ada@example.com', subject, text });
 */
export function createSmtpTransport(options: SmtpTransportOptions): MessageTransport & { close(): void } {
  const secrets = secretsOf(options.url);
  // nodemailer is loaded with the first e-mail, not at start.
  let transporter: Promise<Transporter> | undefined;
  let closed = false;
  const connect = async () => {
    const { createTransport } = await import('nodemailer');
    const created = createTransport({
      url: options.url,
      pool: options.pool ?? false,
      // nodemailer waits minutes by default; a person is waiting for this code.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
    // Closed while it loaded: nothing stays open.
    if (closed) created.close();
    return created;
  };

  return {
    name: 'smtp',
    async send(message) {
      if (message.channel !== 'email') {
        throw new DeliveryError(`The SMTP transport sends e-mail only, not ${message.channel} messages`);
      }
      if (!isSingleAddress(message.to)) {
        // nodemailer would read "a@x.test, b@y.test" as two recipients: never send a code to a second one.
        throw new DeliveryError('The recipient is not a single plain e-mail address');
      }
      try {
        transporter ??= connect();
        await (await transporter).sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
        });
      } catch (error) {
        throw new DeliveryError(redact(`SMTP delivery failed: ${describe(error)}`, secrets), {
          cause: error,
        });
      }
    },
    close() {
      closed = true;
      transporter?.then(
        (created) => created.close(),
        () => {},
      );
    },
  };
}

/** The URL's password in every spelling that could end up in an error message. */
function secretsOf(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError('SMTP_URL is not a valid URL (expected smtp://user:pass@host:587 or smtps://…)');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new TypeError(`SMTP_URL must start with smtp:// or smtps://, not ${parsed.protocol}//`);
  }
  const encoded = parsed.password;
  if (encoded === '') return [];
  let decoded = encoded;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    // Not valid percent-encoding: the raw spelling is the only one.
  }
  // Longest first, so a spelling that contains another is replaced whole.
  return [...new Set([encoded, decoded])].sort((a, b) => b.length - a.length);
}

function redact(text: string, secrets: string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join('[redacted]'), text);
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}

/** One bare address, `local@domain`: no display name, list separators, spaces or brackets. */
function isSingleAddress(to: string): boolean {
  return /^[^\s@,;:<>()[\]"\\]+@[^\s@,;:<>()[\]"\\]+$/.test(to);
}
