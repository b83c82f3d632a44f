import { ERROR_CODES } from '@dial/core';
import { Type } from 'typebox';

/** `{"error":{"code","message"}}`: every error answer. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Enum(ERROR_CODES, {
        description: 'A code of the error catalogue (packages/core/src/errors.ts).',
      }),
      message: Type.String({ description: 'A message a person can act on.' }),
    }),
  },
  { description: 'An error from the catalogue.' },
);

/** `{"ok":true}` */
export const OkSchema = Type.Object({ ok: Type.Literal(true) });

export const ChannelSchema = Type.Enum(['sms', 'email'], {
  description: '`sms` for a phone number, `email` for an e-mail address.',
});

export const UserSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  phone: Type.Union([Type.String(), Type.Null()], { description: 'E.164, or null for an e-mail account.' }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'Lower-case, or null for a phone account.',
  }),
  createdAt: Type.String({ format: 'date-time' }),
});

/** The error answers a route can give, by status, for its `response` schema. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorBodySchema]));
}
