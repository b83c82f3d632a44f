// The security notices of the signed-in person's account, as the app lists them (the same ones its phones
// and e-mail addresses were sent).
import { type Static, Type } from 'typebox';
import { defineRoute } from './defineRoute.js';
import { ENDPOINTS } from './endpoints.js';

/**
 * What a notice can be about: every kind of account event the server records (`notifyOwner`). The server's
 * `AccountEventKind` is checked against it at compile time.
 */
export const NOTICE_KINDS = [
  'shares-rotated',
  'recovery-changed',
  'key-exported',
  'new-browser-sign-in',
  'method-linked',
  'method-removed',
  'change-requested',
  'change-cancelled',
  'change-applied',
  'change-failed',
  'account-secured',
  'browser-forgotten',
  'sessions-ended',
  'device-enrolled',
  'device-removed',
] as const;

/** What a notice is about. */
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The largest page of `GET /api/account/notices`, and its default. */
export const MAX_NOTICES_PAGE_SIZE = 50;

const IdSchema = Type.String({ format: 'uuid' });

export const NoticeSchema = Type.Object({
  id: IdSchema,
  kind: Type.Enum([...NOTICE_KINDS]),
  summary: Type.Union([Type.String(), Type.Null()], {
    description:
      'What exactly happened, in words (e.g. "the e-mail address ann@example.com was linked"); null when the kind says it all.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  read: Type.Boolean({ description: 'Seen in the app’s notices list (`POST /api/account/notices/read`).' }),
});

/** A security notice of the account, as the app lists it. */
export type Notice = Static<typeof NoticeSchema>;

export const listNoticesRoute = defineRoute({
  ...ENDPOINTS.listNotices,
  tags: ['account'],
  summary:
    "The signed-in person's security notices (what their phones and e-mail addresses were told), newest first, a page at a time, and how many are unread.",
  session: true,
  querystring: Type.Object(
    {
      limit: Type.Optional(
        Type.Integer({ minimum: 1, maximum: MAX_NOTICES_PAGE_SIZE, default: MAX_NOTICES_PAGE_SIZE }),
      ),
      cursor: Type.Optional(
        Type.String({
          pattern: '^[A-Za-z0-9_-]{1,200}$',
          description: 'A `nextCursor` from the previous page, as it was given.',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object(
      {
        notices: Type.Array(NoticeSchema),
        nextCursor: Type.Union([Type.String(), Type.Null()], {
          description: 'Pass as `cursor` for the next (older) page; null when there is none.',
        }),
        unread: Type.Integer({
          minimum: 0,
          description: 'How many of all the account’s notices are unread.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  errors: [],
});

/** A page of notices; pass `nextCursor` as `cursor` for the next (older) one. */
export type NoticePage = Static<(typeof listNoticesRoute.schema.response)[200]>;

export const markNoticesReadRoute = defineRoute({
  ...ENDPOINTS.markNoticesRead,
  tags: ['account'],
  summary:
    'Marks the person’s notices read: all of them, or `upTo` a notice (it and every older one), e.g. the newest the list showed, so that one that came meanwhile stays unread.',
  session: true,
  body: Type.Object({ upTo: Type.Optional(IdSchema) }, { additionalProperties: false }),
  response: {
    200: Type.Object({ marked: Type.Integer({ minimum: 0, description: 'How many were unread.' }) }),
  },
  errors: ['not_found'],
});
