import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../appContext.js';
import type { User } from '../auth/users.js';
import type { AccountEventKind } from '../db/database.js';
import { type Channel, createNoticeText, DeliveryError } from '../delivery/index.js';

/** What the owner of an account is told about: the kinds of event `account_events` records. */
export type NoticeKind = AccountEventKind;

/**
 * Tells the owner of an account that something security-relevant happened on it: records the event in
 * `account_events`, then sends a short notice ("…Was this not you?…") to the user's phone by SMS, or to
 * their e-mail address when they have no phone, through the server's transports (the dev outbox in
 * development). The notice carries no code and no secret.
 *
 * Never throws: the action it reports has already happened, so a notice that cannot be recorded or sent is
 * logged (kind, channel and the transport's reason, never the address or the text) and the action succeeds.
 * It waits for the transport, which has its own timeouts, so a test or a caller sees the notice sent.
 *
 * @param ctx - the app context (its database, clock and transports).
 * @param user - the owner; their phone, else their e-mail, receives the notice.
 * @param kind - what happened.
 * @param log - the request's logger.
 * @param options.alsoTo - a second phone number or e-mail address to tell (once, when it is not the first):
 *   a sign-in method just removed hears that it no longer signs in to the account.
 * @example
 * ```ts
 * await notifyOwner(ctx, request.user!, 'recovery-changed', request.log);
 * ```
 */
export async function notifyOwner(
  ctx: Pick<AppContext, 'db' | 'now' | 'transports'>,
  user: User,
  kind: NoticeKind,
  log: FastifyBaseLogger,
  options: { alsoTo?: Recipient | undefined } = {},
): Promise<void> {
  const now = ctx.now();
  try {
    await ctx.db
      .insertInto('account_events')
      .values({ id: randomUUID(), user_id: user.id, kind, created_at: now.toISOString() })
      .execute();
  } catch (error) {
    log.error({ err: error, notice: kind }, 'account event not recorded');
  }

  const recipients: Recipient[] = [];
  const owner = noticeRecipient(user);
  if (owner !== undefined) recipients.push(owner);
  const { alsoTo } = options;
  if (alsoTo !== undefined && !(alsoTo.channel === owner?.channel && alsoTo.to === owner.to)) {
    recipients.push(alsoTo);
  }
  if (recipients.length === 0) {
    log.warn({ notice: kind }, 'notice not sent: the user has no phone number or e-mail address');
    return;
  }
  for (const recipient of recipients) await sendNotice(ctx, recipient, kind, now, log);
}

/** A phone number (by SMS) or e-mail address a notice goes to. */
export interface Recipient {
  channel: Channel;
  to: string;
}

async function sendNotice(
  ctx: Pick<AppContext, 'transports'>,
  { channel, to }: Recipient,
  kind: NoticeKind,
  now: Date,
  log: FastifyBaseLogger,
): Promise<void> {
  const transport = ctx.transports[channel];
  if (transport === undefined) {
    log.warn({ notice: kind, channel }, 'notice not sent: no transport for its channel');
    return;
  }
  const { subject, text } = createNoticeText(kind, channel, now);
  try {
    await transport.send({ channel, to, subject, text });
    log.info({ notice: kind, channel, transport: transport.name }, 'notice sent');
  } catch (error) {
    // A DeliveryError's message is safe to log; anything else is logged by its name only, since it could
    // quote the message it failed to send.
    const reason = error instanceof DeliveryError ? error.message : errorName(error);
    log.warn({ notice: kind, channel, transport: transport.name, reason }, 'notice delivery failed');
  }
}

/** Where a user's notices go: their phone by SMS, else their e-mail address. */
function noticeRecipient(user: User): Recipient | undefined {
  if (user.phone !== null) return { channel: 'sms', to: user.phone };
  if (user.email !== null) return { channel: 'email', to: user.email };
  return undefined;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
