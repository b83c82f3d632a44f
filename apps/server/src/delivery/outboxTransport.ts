import type { MessageTransport, OutboundMessage } from './transport.js';

/** A message kept in the dev outbox. */
export interface OutboxRecord extends OutboundMessage {
  id: string;
  /** ISO 8601 time the message was stored. */
  createdAt: string;
}

/** Where the dev outbox keeps its messages (the server implements it on the database). */
export interface OutboxStore {
  add(message: OutboundMessage): Promise<OutboxRecord>;
  /** The newest `limit` messages, newest first. */
  list(limit?: number): Promise<OutboxRecord[]>;
}

/**
 * The development transport: instead of sending, it stores each message in the outbox (shown at
 * `/dev/outbox`) and prints one line to the console, e.g.
 * `[dev outbox] sms to +447700900123: Your Dial code is 123456. …`.
 *
 * @param store - where messages are kept.
 * @param log - receives the console line; defaults to `console.log`.
 */
export function createOutboxTransport(
  store: OutboxStore,
  log: (line: string) => void = (line) => console.log(line),
): MessageTransport {
  return {
    name: 'outbox',
    async send(message) {
      await store.add(message);
      log(`[dev outbox] ${message.channel} to ${oneLine(message.to)}: ${oneLine(message.text)}`);
    },
  };
}

/** Folds line breaks and other control characters into single spaces so one message is one log line. */
function oneLine(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we remove
  return value.replace(/[\s\u0000-\u001f\u007f]+/g, ' ').trim();
}
