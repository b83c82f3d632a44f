// Accounts and rows the bench writes straight into a running server's database (after it migrated): a
// signed-in account as sign-in would leave it, and any rows a section needs beside it (a long history).
// SQLite through better-sqlite3 on the server's file, PostgreSQL through pg; the same statements for both,
// written with `$1`-style parameters.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, statusOf } from './lib.mjs';

// The server's own dependencies (better-sqlite3, pg, viem), as it resolves them.
const serverRequire = createRequire(join(ROOT, 'apps/server/package.json'));
const { getAddress } = serverRequire('viem');

/**
 * Runs `statements` (`[sql, values]`, `$n` parameters) on the database of `server` (a `startDial` server), in
 * one transaction.
 */
export async function writeRows(server, statements) {
  if (server.databaseUrl) {
    const { Client } = serverRequire('pg');
    const client = new Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query('begin');
      for (const [text, values] of statements) await client.query(text, values);
      await client.query('commit');
    } finally {
      await client.end();
    }
    return;
  }
  const Sqlite = serverRequire('better-sqlite3');
  const db = new Sqlite(join(server.dataDir, 'dial.sqlite'));
  db.pragma('busy_timeout = 5000');
  try {
    const prepared = new Map();
    db.transaction(() => {
      for (const [text, values] of statements) {
        let statement = prepared.get(text);
        if (statement === undefined) {
          statement = db.prepare(text.replace(/\$\d+/g, '?'));
          prepared.set(text, statement);
        }
        statement.run(...values);
      }
    })();
  } finally {
    db.close();
  }
}

/** A random EIP-55 address. */
export function randomAddress() {
  return getAddress(`0x${randomBytes(20).toString('hex')}`);
}

/**
 * A signed-in account, as sign-in would leave it: a phone number, an e-mail address, an embedded wallet and
 * a live session. Checks that `GET /api/me` accepts its session.
 *
 * @returns {Promise<{cookie: string, userId: string, address: string, phone: string}>}
 */
export async function createAccount(server) {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  const iso = now.toISOString();
  const userId = randomUUID();
  const suffix = String(Math.floor(Math.random() * 1e7)).padStart(7, '0');
  const phone = `+44770${suffix}`;
  const address = randomAddress();
  await writeRows(server, [
    ['insert into users (id, created_at) values ($1, $2)', [userId, iso]],
    [
      'insert into identities (id, value, kind, user_id, created_at) values ($1, $2, $3, $4, $5)',
      [randomUUID(), phone, 'phone', userId, iso],
    ],
    [
      'insert into identities (id, value, kind, user_id, created_at) values ($1, $2, $3, $4, $5)',
      [randomUUID(), `bench-${suffix}@example.com`, 'email', userId, iso],
    ],
    [
      'insert into wallets (user_id, address, auth_share_ciphertext, iv, key_version, created_at) values ($1, $2, $3, $4, $5, $6)',
      [userId, address, 'AAAA', 'AAAA', 1, iso],
    ],
    [
      'insert into sessions (token_hash, id, user_id, created_at, last_seen_at, expires_at, method) values ($1, $2, $3, $4, $5, $6, $7)',
      [
        createHash('sha256').update(token).digest('hex'),
        randomUUID(),
        userId,
        iso,
        iso,
        new Date(now.getTime() + 30 * 86_400_000).toISOString(),
        'phone',
      ],
    ],
  ]);
  const cookie = `dial_session=${token}`;
  const status = await statusOf(server.url('/api/me'), { cookie });
  if (status !== 200) throw new Error(`GET /api/me with the bench's session answered ${status}`);
  return { cookie, userId, address, phone };
}
