import { randomUUID } from 'node:crypto';
import { type Channel, METHOD_KIND_CHANNEL } from '@dial/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../appContext.js';
import type { AccountEventKind, Database } from '../db/database.js';
import { createNoticeText, DeliveryError } from '../delivery/index.js';

/** What the owner of an account is told about: the kinds of event `account_events` records. */
export type NoticeKind = AccountEventKind;

/**
 * Tells the owner of an account that something security-relevant happened on it: records the event in
 * `account_events` (the app's notices list, where wallet-only accounts read it), then sends a short notice
 * ("…Was this not you?…") to EVERY phone number (by SMS) and e-mail address of the account, through the
 * server's transports (the dev outbox in development): a SIM swap takes one of them, not all. The notice
 * carries no code and no secret.
 *
 * Never throws: the action it reports has already happened, so a notice that cannot be recorded or sent is
 * logged (kind, channel and the transport's reason, never the address or the text) and the action succeeds.
 * It waits for the transport, which has its own timeouts, so a test or a caller sees the notice sent.
 *
 * @param ctx - the app context (its database, clock and transports).
 * @param user - the owner; every phone number and e-mail address of their account receives the notice.
 * @param kind - what happened.
 * @param log - the request's logger.
 * @param options.alsoTo - a phone number or e-mail address to tell besides the account's (once): a sign-in
 *   method just removed hears that it no longer signs in to the account.
 * @param options.summary - what exactly happened, in words, for the notice and the app's list (no secret).
 * @param options.skip - a phone number or e-mail address not to tell: the method a link just added, whose
 *   holder (the one who asked) learns nothing from it and must not get the owner's notices of its own link.
 * @example
 * ```ts
 * await notifyOwner(ctx, request.user!, 'recovery-changed', request.log);
 * ```
 */
export async function notifyOwner(
  ctx: Pick<AppContext, 'db' | 'now' | 'transports'>,
  user: { id: string },
  kind: NoticeKind,
  log: FastifyBaseLogger,
  options: { alsoTo?: Recipient | undefined; summary?: string | undefined; skip?: string | undefined } = {},
): Promise<void> {
  const now = ctx.now();
  const { summary } = options;
  try {
    await ctx.db
      .insertInto('account_events')
      .values({
        id: randomUUID(),
        user_id: user.id,
        kind,
        created_at: now.toISOString(),
        details: summary === undefined ? null : JSON.stringify({ summary }),
      })
      .execute();
  } catch (error) {
    log.error({ err: error, notice: kind }, 'account event not recorded');
  }

  let recipients: Recipient[] = [];
  try {
    recipients = (await noticeRecipients(ctx.db, user.id)).filter(
      (recipient) => recipient.to !== options.skip,
    );
  } catch (error) {
    log.error({ err: error, notice: kind }, 'notice recipients not read');
  }
  const { alsoTo } = options;
  if (alsoTo !== undefined && !recipients.some((r) => r.channel === alsoTo.channel && r.to === alsoTo.to)) {
    recipients.push(alsoTo);
  }
  if (recipients.length === 0) {
    log.info(
      { notice: kind },
      'notice recorded in the app only: the account has no phone number or e-mail address',
    );
    return;
  }
  for (const recipient of recipients) await sendNotice(ctx, recipient, kind, now, log, summary);
}

/** Every phone number and e-mail address of the account, oldest first: where its notices go. */
export async function noticeRecipients(db: Kysely<Database>, userId: string): Promise<Recipient[]> {
  const rows = await db
    .selectFrom('identities')
    .select(['kind', 'value'])
    .where('user_id', '=', userId)
    .where('kind', 'in', ['phone', 'email'])
    .orderBy('created_at')
    .orderBy('value')
    .execute();
  return rows.map((row) => ({
    channel: METHOD_KIND_CHANNEL[row.kind as keyof typeof METHOD_KIND_CHANNEL],
    to: row.value,
  }));
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
  summary: string | undefined,
): Promise<void> {
  const transport = ctx.transports[channel];
  if (transport === undefined) {
    log.warn({ notice: kind, channel }, 'notice not sent: no transport for its channel');
    return;
  }
  const { subject, text } = createNoticeText(kind, channel, now, 'Dial', summary);
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

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : typeof error;
}
