/**
 * The channels a one-time code or a notice goes by: `sms` to a phone number, `email` to an e-mail address. The
 * one list the contract's schemas, the server's transports and tables, and the web app's forms are built from.
 */
export const CHANNELS = ['sms', 'email'] as const;

/** A channel of {@link CHANNELS}: `sms` for a phone number, `email` for an e-mail address. */
export type Channel = (typeof CHANNELS)[number];

/** The kind of sign-in method each channel reaches: a phone number by SMS, an e-mail address by e-mail. */
export const CHANNEL_METHOD_KIND = Object.freeze({
  sms: 'phone',
  email: 'email',
} as const) satisfies Readonly<Record<Channel, string>>;

/** The channel that reaches each kind of sign-in method that a code or a notice can reach. */
export const METHOD_KIND_CHANNEL = Object.freeze({
  phone: 'sms',
  email: 'email',
} as const) satisfies Readonly<Record<(typeof CHANNEL_METHOD_KIND)[Channel], Channel>>;
