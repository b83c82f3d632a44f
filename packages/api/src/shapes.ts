// Shapes several features' routes share.
import { CHANNELS } from '@dial/core';
import { type Static, Type } from 'typebox';

/** `{"ok":true}` */
export const OkSchema = Type.Object({ ok: Type.Literal(true) });

export const ChannelSchema = Type.Enum([...CHANNELS], {
  description: '`sms` for a phone number, `email` for an e-mail address.',
});

/** A sign-in channel: `sms` for a phone number, `email` for an e-mail address. */
export type OtpChannel = Static<typeof ChannelSchema>;

export const UserSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  phone: Type.Union([Type.String(), Type.Null()], {
    description: 'The first phone number linked (E.164), or null when there is none.',
  }),
  email: Type.Union([Type.String(), Type.Null()], {
    description: 'The first e-mail address linked (lower-case), or null when there is none.',
  }),
  wallet: Type.Union(
    [
      Type.Object({
        address: HexString({ description: 'EIP-55 checksummed.' }),
        kind: Type.Enum(['embedded', 'external']),
      }),
      Type.Null(),
    ],
    {
      description:
        'The wallet the account sends and receives with: its embedded wallet when it has one, else the first ' +
        'wallet it linked (`external`: the person signs in that wallet, Dial holds none of its key); null ' +
        'before an embedded wallet is made.',
    },
  ),
  createdAt: Type.String({ format: 'date-time' }),
});

export type User = Static<typeof UserSchema>;

/** An address: `0x` and 40 hex digits. */
export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$';

/**
 * A `0x` string in an answer (an address, a hash), typed as viem's `` `0x${string}` `` for the clients that
 * pass it on to viem. Only for answers: the server writes them, nothing validates them on the way in.
 */
export function HexString(options: { pattern?: string; description?: string } = {}) {
  return Type.Unsafe<`0x${string}`>(Type.String(options));
}

export const GenerationSchema = Type.Integer({
  minimum: 1,
  description: 'Which split of the key the shares belong to: 1 at registration, +1 at every rotation.',
});
