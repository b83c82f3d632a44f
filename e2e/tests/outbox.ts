import { type APIRequestContext, expect } from '@playwright/test';

interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  to: string;
  subject: string;
  text: string;
  code?: string;
  createdAt: string;
}

/** The dev outbox's messages to one recipient, newest first. */
export async function messagesTo(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const response = await request.get('/dev/outbox.json');
  expect(response.ok()).toBe(true);
  const { messages } = (await response.json()) as { messages: OutboxMessage[] };
  return messages.filter((message) => message.to === to);
}

/** Waits for a new code to reach `to` through the dev outbox (one not in `seen`), and returns it. */
export async function readCode(
  request: APIRequestContext,
  to: string,
  seen: readonly string[] = [],
): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        // Notices (no code) may arrive after a code: the latest message WITH a code is the one to read.
        const [latest] = (await messagesTo(request, to)).filter((message) => message.code !== undefined);
        code = latest && !seen.includes(latest.id) ? latest.code : undefined;
        return code;
      },
      { message: `a code for ${to} in the dev outbox`, timeout: 10_000 },
    )
    .toMatch(/^\d{6}$/);
  return code as string;
}

/** Ids of the messages already sent to `to`, so that a later readCode waits for a new one. */
export async function seenMessages(request: APIRequestContext, to: string): Promise<string[]> {
  return (await messagesTo(request, to)).map((message) => message.id);
}

/** A six-digit code that is certainly not `code`. */
export function wrongCode(code: string, offset = 1): string {
  return String((Number(code) + offset) % 1_000_000).padStart(6, '0');
}

/** Waits for a notice (a message without a code) to `to` that says `pattern`, not one in `seen`. */
export async function expectNotice(
  request: APIRequestContext,
  to: string,
  pattern: RegExp,
  seen: readonly string[] = [],
): Promise<void> {
  await expect
    .poll(
      async () =>
        (await messagesTo(request, to)).some(
          (message) => message.code === undefined && !seen.includes(message.id) && pattern.test(message.text),
        ),
      { message: `a notice to ${to} matching ${pattern}`, timeout: 10_000 },
    )
    .toBe(true);
}
