import { describe, expect, it, vi } from 'vitest';
import { createMessageText } from './messageText.js';
import { createOutboxTransport, type OutboxRecord, type OutboxStore } from './outboxTransport.js';
import type { OutboundMessage } from './transport.js';

/** The smallest OutboxStore: an array, with ids and times from counters. */
function createMemoryOutboxStore(): OutboxStore & { records: OutboxRecord[] } {
  const records: OutboxRecord[] = [];
  return {
    records,
    async add(message) {
      const record = {
        ...message,
        id: `msg-${records.length + 1}`,
        createdAt: new Date(Date.UTC(2025, 0, 1, 12, 0, records.length)).toISOString(),
      };
      records.push(record);
      return record;
    },
    async list(limit = 50) {
      return records.slice().reverse().slice(0, limit);
    },
  };
}

const sms: OutboundMessage = {
  channel: 'sms',
  to: '+447700900123',
  ...createMessageText('sms', '123456', 600),
  code: '123456',
};

describe('createOutboxTransport', () => {
  it('stores the message and logs one line with the recipient and the code', async () => {
    const store = createMemoryOutboxStore();
    const log = vi.fn<(line: string) => void>();
    const transport = createOutboxTransport(store, log);

    await transport.send(sms);

    expect(transport.name).toBe('outbox');
    expect(await store.list()).toEqual([
      {
        id: 'msg-1',
        createdAt: '2025-01-01T12:00:00.000Z',
        channel: 'sms',
        to: '+447700900123',
        subject: 'Your Dial code',
        text: "Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone.",
        code: '123456',
      },
    ]);
    expect(log.mock.calls).toEqual([
      [
        "[dev outbox] sms to +447700900123: Your Dial code is 123456. It expires in 10 minutes. Don't share it with anyone.",
      ],
    ]);
  });

  it('folds a multi-line e-mail text into one log line', async () => {
    const store = createMemoryOutboxStore();
    const log = vi.fn<(line: string) => void>();
    const transport = createOutboxTransport(store, log);

    await transport.send({
      channel: 'email',
      to: 'ada@example.test',
      ...createMessageText('email', '654321', 600),
      code: '654321',
    });

    expect(log).toHaveBeenCalledTimes(1);
    expect(log).toHaveBeenCalledWith(
      "[dev outbox] email to ada@example.test: Your Dial sign-in code is 654321. It expires in 10 minutes. Don't share it with anyone. If you didn't try to sign in to Dial, you can ignore this e-mail.",
    );
    expect(store.records[0]?.text).toContain('\n');
  });

  it('logs to console.log by default', async () => {
    const consoleLog = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await createOutboxTransport(createMemoryOutboxStore()).send(sms);
      expect(consoleLog).toHaveBeenCalledTimes(1);
      expect(consoleLog.mock.calls[0]?.[0]).toMatch(
        /^\[dev outbox\] sms to \+447700900123: Your Dial code is 123456\./,
      );
    } finally {
      consoleLog.mockRestore();
    }
  });

  it('does not log when the store fails, and passes the failure on', async () => {
    const failure = new Error('database is locked');
    const log = vi.fn<(line: string) => void>();
    const store: OutboxStore = { add: () => Promise.reject(failure), list: async () => [] };

    await expect(createOutboxTransport(store, log).send(sms)).rejects.toBe(failure);
    expect(log).not.toHaveBeenCalled();
  });
});
