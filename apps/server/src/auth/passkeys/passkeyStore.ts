import type { Kysely } from 'kysely';
import type { Database } from '../../db/database.js';
import type { NewPasskey } from './passkeyCeremonies.js';

/**
 * Stores a verified passkey's credential beside the identity that makes it a sign-in method of the account
 * (kind `passkey`, value its credential id), in the transaction that inserted that identity.
 */
export async function storePasskey(
  db: Kysely<Database>,
  owner: { userId: string; identityId: string },
  passkey: NewPasskey,
  now: Date,
): Promise<void> {
  await db
    .insertInto('passkeys')
    .values({
      identity_id: owner.identityId,
      user_id: owner.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: JSON.stringify(passkey.transports),
      user_handle: passkey.userHandle,
      aaguid: passkey.aaguid,
      name: passkey.name,
      backed_up: passkey.backedUp ? 1 : 0,
      created_at: now.toISOString(),
      last_used_at: null,
    })
    .execute();
}
