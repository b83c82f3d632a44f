import { type APIRequestContext, expect } from '@playwright/test';

interface OutboxMessage {
  id: string;
  channel: 'sms' | 'email';
  to: string;
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
        const [latest] = await messagesTo(request, to);
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
