import { randomUUID } from 'node:crypto';
import type { AccountChange, StepUpProof } from '@dial/api';
import { type AccountChangeAction, accountChangeTarget, DAY_MS, DialError, HOUR_MS } from '@dial/core';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { AppContext } from '../appContext.js';
import { forgetBrowser } from '../auth/browsers.js';
import { describeUserAgent } from '../auth/describeUserAgent.js';
import { checkLinkable, linkMethod, selectMethodRows } from '../auth/linkMethod.js';
import type { NewPasskey } from '../auth/passkeys/passkeyCeremonies.js';
import { storePasskey } from '../auth/passkeys/passkeyStore.js';
import { sessionHashOf } from '../auth/reauthentication.js';
import type { AccountChangesTable, Database, IdentityKind } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';
import { isSessionLive } from '../db/sessionLiveness.js';
import { publishWalletEvent } from '../events/walletEvents.js';
import { type NoticeKind, notifyOwner, type Recipient } from '../notices/notifyOwner.js';
import { accountSigners } from '../wallet/accountProof.js';
import { ownLiveDevice, removeDevice } from '../wallet/deviceStore.js';
import { canProve, verifyStepUp } from './stepUpProof.js';

/** A change to the account that a session may ask for, with or without the key's proof. */
export type AccountChangeRequest =
  | { action: 'link-method'; kind: IdentityKind; value: string; passkey?: NewPasskey }
  | { action: 'remove-method'; id: string }
  | { action: 'set-findable'; id: string; findable: boolean }
  | { action: 'end-sessions'; id: string | 'all-others' }
  | { action: 'use-wallet'; id: string }
  | { action: 'forget-browser'; id: string }
  | { action: 'remove-device'; id: string };

/** The asking session: its public id, the method it signed in with and whether that one is trusted. */
export interface AskingSession {
  id: string;
  userId: string;
  tokenHash: string;
  identityId: string | null;
  deviceHash: string | null;
  userAgent: string | null;
  /** Signed in with a trusted method, or before methods were recorded on sessions (migration 0013). */
  trusted: boolean;
}

/** The session of a request that `requireUser` accepted. */
export async function askingSession(db: Kysely<Database>, request: FastifyRequest): Promise<AskingSession> {
  const tokenHash = sessionHashOf(request);
  const row = await db
    .selectFrom('sessions')
    .leftJoin('identities', 'identities.id', 'sessions.identity_id')
    .select([
      'sessions.id',
      'sessions.user_id',
      'sessions.identity_id',
      'sessions.device_hash',
      'sessions.user_agent',
      'identities.trusted',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
  if (row === undefined) throw new DialError('unauthorized');
  return {
    id: row.id,
    userId: row.user_id,
    tokenHash,
    identityId: row.identity_id,
    deviceHash: row.device_hash,
    userAgent: row.user_agent,
    // A session whose method was removed since has identity_id set and no row: it was ended with it.
    trusted: row.identity_id === null || Number(row.trusted) === 1,
  };
}

/** What {@link changeAccount} did: made the change now (the proof held), or recorded it as pending. */
export type ChangeOutcome<T> = { applied: T } | { pending: AccountChange };

/**
 * A change route's answer: `202 {pending}` when the change was only asked for, else what `made` answers with
 * what was applied. Every route of a change answers through it.
 */
export function answerChange<
  R extends { code(status: 202): { send(body: { pending: AccountChange }): unknown } },
  T,
  A,
>(reply: R, outcome: ChangeOutcome<T>, made: (applied: T) => A): R | A {
  if ('pending' in outcome) {
    reply.code(202).send(outcome);
    return reply;
  }
  return made(outcome.applied);
}

/** What each change's effect answers when it is made. */
interface Applied {
  'link-method': Awaited<ReturnType<typeof linkMethod>>;
  'remove-method': { endedSessions: number };
  'set-findable': { findable: boolean };
  'end-sessions': { ended: number };
  'use-wallet': { id: string };
  'forget-browser': { endedSessions: number };
  'remove-device': { removed: true };
}

/**
 * Makes a change to the account, or asks for it. With a proof by the account's key ({@link verifyAccountProof}),
 * the change is made at once and the owner told as before. Without one, the change is checked as it would be
 * made (so a refusal comes now, not in two days), recorded in `account_changes` to be made after the
 * cooling-off period (`COOLING_OFF_HOURS`), every method of the account is told by SMS and e-mail and every
 * signed-in browser through the live stream, and any session with the proof can cancel it. A trusted method
 * (the account's first, or linked with proof) is removed only with the proof (`account_proof_required`; an
 * account without a key yet may ask), and a session that signed in with a method linked without proof cannot
 * even ask to (`method_outranked`).
 *
 * @throws {DialError} the change's own refusals (`not_found`, `last_method`, `method_taken`…), a proof's
 *   (`wallet_proof_invalid`, `wallet_proof_expired`), `method_outranked`.
 */
export async function changeAccount<C extends AccountChangeRequest>(
  ctx: AppContext,
  request: FastifyRequest,
  change: C,
  proof: StepUpProof | undefined,
): Promise<ChangeOutcome<Applied[C['action']]>> {
  const session = await askingSession(ctx.db, request);
  const now = ctx.now();
  if (proof !== undefined) {
    await verifyStepUp(
      ctx,
      { userId: session.userId, sessionHash: session.tokenHash },
      { action: change.action, target: accountChangeTarget(change) },
      proof,
      now,
    );
    const applied = await applyChange(ctx, session.userId, change, {
      trusted: true,
      keepSession: session.id,
      askedAt: null,
      log: request.log,
    });
    return { applied: applied as Applied[C['action']] };
  }

  const summary = await checkAskable(ctx, session, change);
  const row: AccountChangesTable = {
    id: randomUUID(),
    user_id: session.userId,
    action: change.action,
    details: JSON.stringify({ ...change, summary }),
    requested_by_session: session.id,
    requested_by_identity: session.identityId,
    requested_from: session.userAgent === null ? null : describeUserAgent(session.userAgent),
    status: 'pending',
    created_at: now.toISOString(),
    applies_at: new Date(now.getTime() + ctx.config.coolingOffHours * HOUR_MS).toISOString(),
    settled_at: null,
    outcome: null,
  };
  await ctx.db.insertInto('account_changes').values(row).execute();
  const pending = toAccountChange(row, session.id);
  await tell(ctx, session.userId, 'change-requested', request.log, {
    summary: `${summary}, on ${row.applies_at.slice(0, 16).replace('T', ' ')} UTC unless it is cancelled`,
    change: 'requested',
  });
  return { pending };
}

/**
 * Checks a change asked for without proof as it would be made, and whether this session may ask for it.
 *
 * @returns the change in words, for the owner.
 */
async function checkAskable(ctx: AppContext, session: AskingSession, change: AccountChangeRequest) {
  const userId = session.userId;
  switch (change.action) {
    case 'link-method':
      await checkLinkable(ctx.db, userId, change.value, ctx.config.maxSignInMethods);
      return `link ${describeMethod(change.kind, change.value, change.passkey?.name)}`;
    case 'remove-method': {
      const method = await ownMethod(ctx.db, userId, change.id);
      if (Number(method.trusted) === 1) {
        if (!session.trusted) throw new DialError('method_outranked');
        // The account's own methods go only with the key's proof: waiting is for what cannot be proven yet.
        if (await canProve(ctx.db, userId)) {
          throw new DialError('account_proof_required', {
            details: 'a trusted method is removed only with the key',
          });
        }
      }
      await refuseLastMethod(ctx.db, userId);
      return `remove ${describeMethod(method.kind, method.value, method.name)}`;
    }
    case 'set-findable': {
      const method = await ownMethod(ctx.db, userId, change.id);
      if (method.kind !== 'phone') throw notFindable();
      return change.findable
        ? `let others find you by ${method.value}`
        : `stop others finding you by ${method.value}`;
    }
    case 'end-sessions': {
      if (change.id === 'all-others') return 'end every other session';
      const other = await ctx.db
        .selectFrom('sessions')
        .select('user_agent')
        .where('id', '=', change.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (other === undefined) throw new DialError('not_found', { details: 'no such session of yours' });
      return `end the session of ${describeUserAgent(other.user_agent)}`;
    }
    case 'use-wallet': {
      const method = await ownMethod(ctx.db, userId, change.id);
      if (method.kind !== 'wallet') throw new DialError('not_found', { details: 'no such wallet of yours' });
      return `make ${method.value} the account's wallet`;
    }
    case 'forget-browser': {
      const browser = await ctx.db
        .selectFrom('known_devices')
        .select('user_agent')
        .where('id', '=', change.id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (browser === undefined) throw new DialError('not_found', { details: 'no such browser of yours' });
      return `forget the browser ${describeUserAgent(browser.user_agent)}`;
    }
    case 'remove-device': {
      const device = await ownLiveDevice(ctx.db, userId, change.id);
      return `remove the device ${device.name} from your wallet`;
    }
  }
}

const KIND_WORDS: Record<IdentityKind, string> = {
  phone: 'the phone number',
  email: 'the e-mail address',
  wallet: 'the wallet',
  passkey: 'the passkey',
};

/** A method in words, for the owner: its kind and value, a passkey by its name (its id means nothing to them). */
function describeMethod(kind: IdentityKind, value: string, name: string | null | undefined): string {
  return kind === 'passkey' ? `${KIND_WORDS.passkey} "${name ?? value}"` : `${KIND_WORDS[kind]} ${value}`;
}

function notFindable() {
  return new DialError('invalid_data', {
    message:
      'Only a phone number can be found by others (for send-to-phone); e-mail addresses and wallets never are.',
  });
}

/**
 * One of the user's sign-in methods, its row as stored.
 *
 * @throws {DialError} `not_found` for an id that is not one of the user's (as for one that does not exist).
 */
export async function ownMethod(db: Kysely<Database>, userId: string, id: string) {
  const row = await selectMethodRows(db)
    .where('identities.id', '=', id)
    .where('identities.user_id', '=', userId)
    .executeTakeFirst();
  if (row === undefined) throw new DialError('not_found', { details: 'no such sign-in method of yours' });
  return row;
}

async function refuseLastMethod(db: Kysely<Database>, userId: string): Promise<void> {
  const { count } = await db
    .selectFrom('identities')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) <= 1) throw new DialError('last_method');
}

/**
 * Makes a change: at once after a proof, or when its cooling-off period ends. Tells the owner as each change
 * always has (a link, a removal) and ends what the change ends.
 */
async function applyChange(
  ctx: AppContext,
  userId: string,
  change: AccountChangeRequest,
  how: { trusted: boolean; keepSession: string | null; askedAt: string | null; log: FastifyBaseLogger },
): Promise<Applied[AccountChangeAction & keyof Applied]> {
  const { db } = ctx;
  switch (change.action) {
    case 'link-method': {
      const now = ctx.now();
      const passkey = change.passkey;
      const method = await linkMethod(
        db,
        userId,
        { kind: change.kind, value: change.value },
        ctx.config.maxSignInMethods,
        now,
        how.trusted,
        passkey === undefined
          ? undefined
          : async (trx, identityId) => {
              await storePasskey(trx, { userId, identityId }, passkey, now);
              return { name: passkey.name };
            },
      );
      await tell(ctx, userId, 'method-linked', how.log, {
        summary: `${describeMethod(change.kind, change.value, passkey?.name)} was linked`,
        skip: change.value,
      });
      return method;
    }
    case 'remove-method': {
      const removed = await db.transaction().execute(async (trx) => {
        // Two removals of one user run one at a time on every server (see linkMethod).
        if (dialectOf(db) === 'postgres') {
          await sql`select id from users where id = ${userId} for update`.execute(trx);
        }
        const row = await ownMethod(trx, userId, change.id);
        await refuseLastMethod(trx, userId);
        await trx.deleteFrom('identities').where('id', '=', row.id).where('user_id', '=', userId).execute();
        // The sessions it started end with it (the asking session too, when it removes its own method).
        const ended = await trx
          .deleteFrom('sessions')
          .where('user_id', '=', userId)
          .where('identity_id', '=', row.id)
          .returning('id')
          .execute();
        return { row, endedSessions: ended.length };
      });
      const { row } = removed;
      const alsoTo: Recipient | undefined =
        row.kind === 'phone'
          ? { channel: 'sms', to: row.value }
          : row.kind === 'email'
            ? { channel: 'email', to: row.value }
            : undefined;
      await tell(ctx, userId, 'method-removed', how.log, {
        summary: `${describeMethod(row.kind, row.value, row.name)} was removed`,
        alsoTo,
      });
      return { endedSessions: removed.endedSessions };
    }
    case 'set-findable': {
      const method = await ownMethod(db, userId, change.id);
      if (method.kind !== 'phone') throw notFindable();
      await db
        .updateTable('identities')
        .set({ findable: change.findable ? 1 : 0 })
        .where('id', '=', method.id)
        .where('user_id', '=', userId)
        .execute();
      return { findable: change.findable };
    }
    case 'end-sessions': {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (change.id === 'all-others') {
        if (how.keepSession !== null) query = query.where('id', '<>', how.keepSession);
        // Asked for without proof: the sessions there were then, not the owner's sign-ins since.
        if (how.askedAt !== null) query = query.where('created_at', '<=', how.askedAt);
      } else {
        query = query.where('id', '=', change.id);
      }
      const ended = await query.returning(['id', 'expires_at', 'last_seen_at']).execute();
      if (change.id !== 'all-others' && ended.length === 0) {
        throw new DialError('not_found', { details: 'no such session of yours' });
      }
      return { ended: countLive(ctx, ended) };
    }
    case 'use-wallet': {
      const method = await ownMethod(db, userId, change.id);
      if (method.kind !== 'wallet') throw new DialError('not_found', { details: 'no such wallet of yours' });
      await db
        .updateTable('identities')
        .set({ trusted: 1 })
        .where('id', '=', method.id)
        .where('user_id', '=', userId)
        .execute();
      return { id: method.id };
    }
    case 'forget-browser': {
      const forgotten = await forgetBrowser(db, userId, change.id);
      await tell(ctx, userId, 'browser-forgotten', how.log, {});
      return forgotten;
    }
    case 'remove-device': {
      const removed = await removeDevice(db, userId, change.id, ctx.now());
      await tell(ctx, userId, 'device-removed', how.log, {
        summary: `${removed.name} was removed: the key share it holds opens your wallet no more`,
      });
      // The removed browser's open page checks its device at once (the recovery pair is unchanged).
      const wallet = await db
        .selectFrom('wallets')
        .select('share_generation')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (wallet !== undefined) {
        await publishWalletEvent(ctx, userId, { kind: 'keys', generation: Number(wallet.share_generation) });
      }
      return { removed: true };
    }
  }
}

/** How many of the ended sessions were still live (rows of ended ones wait for the sweep). */
function countLive(ctx: AppContext, rows: readonly { expires_at: string; last_seen_at: string }[]): number {
  const now = ctx.now();
  return rows.filter((row) => isSessionLive(row, ctx.config.session.idleHours, now)).length;
}

/** Records and sends a notice, and tells the account's open browsers through the live stream. */
async function tell(
  ctx: AppContext,
  userId: string,
  kind: NoticeKind,
  log: FastifyBaseLogger,
  options: {
    summary?: string;
    alsoTo?: Recipient | undefined;
    skip?: string;
    change?: 'requested' | 'settled' | 'notice';
  },
): Promise<void> {
  await notifyOwner(ctx, { id: userId }, kind, log, {
    summary: options.summary,
    alsoTo: options.alsoTo,
    skip: options.skip,
  });
  try {
    await publishWalletEvent(ctx, userId, { kind: 'account', change: options.change ?? 'notice' });
  } catch (error) {
    log.warn({ err: error }, 'account event not published');
  }
}

/** A row of `account_changes` as its owner sees it. */
export function toAccountChange(
  row: Pick<
    AccountChangesTable,
    | 'id'
    | 'action'
    | 'details'
    | 'status'
    | 'requested_by_session'
    | 'requested_from'
    | 'created_at'
    | 'applies_at'
    | 'settled_at'
    | 'outcome'
  >,
  currentSessionId: string,
): AccountChange {
  const { summary } = JSON.parse(row.details) as { summary: string };
  return {
    id: row.id,
    action: row.action as AccountChange['action'],
    summary: summary.charAt(0).toUpperCase() + summary.slice(1),
    status: row.status,
    requestedFrom: row.requested_from,
    requestedHere: row.requested_by_session === currentSessionId,
    createdAt: row.created_at,
    appliesAt: row.applies_at,
    settledAt: row.settled_at,
    outcome: row.outcome,
  };
}

/**
 * Makes the changes whose cooling-off period has ended. Each is claimed by one conditional update, so every
 * server may run this and a change is made once; a change that can no longer be made (the value was taken
 * meanwhile, the method is gone) is marked `failed` with the error's code, and the owner told either way.
 *
 * @returns how many changes came due.
 */
export async function applyDueChanges(ctx: AppContext, log: FastifyBaseLogger): Promise<number> {
  const now = ctx.now().toISOString();
  const due = await ctx.db
    .selectFrom('account_changes')
    .selectAll()
    .where('status', '=', 'pending')
    .where('applies_at', '<=', now)
    .orderBy('applies_at')
    .limit(50)
    .execute();
  for (const row of due) {
    const claimed = await ctx.db
      .updateTable('account_changes')
      .set({ status: 'applied', settled_at: now })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    // Claimed as made before it is made: a server that dies in between leaves it marked but not made, the safe
    // way round for a change nobody proved.
    if (claimed === undefined) continue;
    const change = JSON.parse(row.details) as AccountChangeRequest & { summary: string };
    try {
      await applyChange(ctx, row.user_id, change, {
        trusted: false,
        keepSession: row.requested_by_session,
        askedAt: row.created_at,
        log,
      });
      await tell(ctx, row.user_id, 'change-applied', log, { summary: change.summary, change: 'settled' });
    } catch (error) {
      const code = error instanceof DialError ? error.code : 'internal_error';
      if (!(error instanceof DialError)) log.error({ err: error, change: row.id }, 'account change failed');
      await ctx.db
        .updateTable('account_changes')
        .set({ status: 'failed', outcome: code })
        .where('id', '=', row.id)
        .execute();
      await tell(ctx, row.user_id, 'change-failed', log, { summary: change.summary, change: 'settled' });
    }
  }
  return due.length;
}

/**
 * Cancels a pending change. Needs the key's proof; an account that has no key yet (no embedded wallet, no
 * trusted wallet) cancels from a session of a trusted method instead.
 *
 * @throws {DialError} `not_found`, `change_not_pending`, `account_proof_required`, a proof's refusals.
 */
export async function cancelChange(
  ctx: AppContext,
  request: FastifyRequest,
  changeId: string,
  proof: StepUpProof | undefined,
): Promise<AccountChange> {
  const session = await askingSession(ctx.db, request);
  const now = ctx.now();
  if (proof !== undefined) {
    await verifyStepUp(
      ctx,
      { userId: session.userId, sessionHash: session.tokenHash },
      { action: 'cancel-change', target: accountChangeTarget({ action: 'cancel-change', id: changeId }) },
      proof,
      now,
    );
  } else if ((await canProve(ctx.db, session.userId)) || !session.trusted) {
    throw new DialError('account_proof_required');
  }
  const row = await ctx.db
    .selectFrom('account_changes')
    .selectAll()
    .where('id', '=', changeId)
    .where('user_id', '=', session.userId)
    .executeTakeFirst();
  if (row === undefined) throw new DialError('not_found', { details: 'no such change of yours' });
  const cancelled = await ctx.db
    .updateTable('account_changes')
    .set({ status: 'cancelled', settled_at: now.toISOString(), outcome: 'cancelled' })
    .where('id', '=', changeId)
    .where('user_id', '=', session.userId)
    .where('status', '=', 'pending')
    .returningAll()
    .executeTakeFirst();
  if (cancelled === undefined) throw new DialError('change_not_pending');
  const change = toAccountChange(cancelled, session.id);
  await tell(ctx, session.userId, 'change-cancelled', request.log, {
    summary: change.summary,
    change: 'settled',
  });
  return change;
}

/**
 * "Secure my account", with the key's proof: ends every other session, removes every method linked without
 * proof (but the one this session signed in with, and never the last), cancels every pending change and
 * forgets every other browser, so whoever held a code or a cookie is left with nothing.
 */
export async function secureAccount(ctx: AppContext, request: FastifyRequest, proof: StepUpProof) {
  const session = await askingSession(ctx.db, request);
  const now = ctx.now();
  await verifyStepUp(
    ctx,
    { userId: session.userId, sessionHash: session.tokenHash },
    { action: 'secure-account', target: accountChangeTarget({ action: 'secure-account' }) },
    proof,
    now,
  );
  const userId = session.userId;
  const result = await ctx.db.transaction().execute(async (trx) => {
    if (dialectOf(ctx.db) === 'postgres') {
      await sql`select id from users where id = ${userId} for update`.execute(trx);
    }
    const cancelled = await trx
      .updateTable('account_changes')
      .set({ status: 'cancelled', settled_at: now.toISOString(), outcome: 'secure-account' })
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .returning('id')
      .execute();
    let removable = trx
      .selectFrom('identities')
      .select('id')
      .where('user_id', '=', userId)
      .where('trusted', '=', 0);
    if (session.identityId !== null) removable = removable.where('id', '<>', session.identityId);
    const untrusted = (await removable.execute()).map((row) => row.id);
    const { count } = await trx
      .selectFrom('identities')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    const toRemove = Number(count) - untrusted.length >= 1 ? untrusted : untrusted.slice(1);
    if (toRemove.length > 0) {
      await trx.deleteFrom('identities').where('user_id', '=', userId).where('id', 'in', toRemove).execute();
    }
    const ended = await trx
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '<>', session.id)
      .returning(['id', 'expires_at', 'last_seen_at'])
      .execute();
    let browsers = trx.deleteFrom('known_devices').where('user_id', '=', userId);
    if (session.deviceHash !== null) browsers = browsers.where('device_hash', '<>', session.deviceHash);
    const forgotten = await browsers.returning('id').execute();
    return {
      endedSessions: countLive(ctx, ended),
      removedMethods: toRemove.length,
      cancelledChanges: cancelled.length,
      forgottenBrowsers: forgotten.length,
    };
  });
  await tell(ctx, userId, 'account-secured', request.log, {
    summary:
      `${result.endedSessions} other sessions ended, ${result.removedMethods} unconfirmed sign-in methods ` +
      `removed, ${result.cancelledChanges} pending changes cancelled, ${result.forgottenBrowsers} other ` +
      'browsers forgotten',
    change: 'settled',
  });
  return result;
}

/** The account's pending changes and those settled in the last 30 days, newest first. */
export async function listChanges(ctx: AppContext, request: FastifyRequest) {
  const session = await askingSession(ctx.db, request);
  const since = new Date(ctx.now().getTime() - 30 * DAY_MS).toISOString();
  const rows = await ctx.db
    .selectFrom('account_changes')
    .selectAll()
    .where('user_id', '=', session.userId)
    .where((eb) => eb.or([eb('status', '=', 'pending'), eb('settled_at', '>', since)]))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(100)
    .execute();
  return {
    changes: rows.map((row) => toAccountChange(row, session.id)),
    coolingOffHours: ctx.config.coolingOffHours,
    signers: await accountSigners(ctx.db, session.userId),
    sessionTrusted: session.trusted,
  };
}
