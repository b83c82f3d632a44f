import { randomUUID } from 'node:crypto';
import { ERROR_CATALOGUE } from '@dial/core';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createPostgresDatabase } from '../src/db/createDatabase.js';
import { createPostgresPool } from '../src/db/postgresPool.js';
import { DIALECTS, dialectLabel, useTestDatabase } from './databases.js';
import { NEEDS_TEST_REDIS_URL, redisHostPort, testRedisUrl, useRedisKeyPrefix, viaProxy } from './redis.js';
import { startTcpProxy } from './tcpProxy.js';
import { createTestApp } from './testApp.js';

const testDatabaseUrl = process.env.TEST_DATABASE_URL?.trim() || undefined;

/** The 503 body of `/api/ready` with the given parts' states. */
const notReady = (parts: { database: string; redis: string }) => ({
  ok: false,
  ...parts,
  error: { code: 'not_ready', message: ERROR_CATALOGUE.not_ready.message },
});

/** Checks that an answer names no host, port, password or driver message. */
function expectNoSecrets(response: LightMyRequestResponse, ...secrets: string[]): void {
  for (const secret of ['127.0.0.1', 'redis://', 'postgres://', 'ECONNREFUSED', ...secrets]) {
    expect(response.body).not.toContain(secret);
  }
}

describe.each(DIALECTS)('GET /api/health and /api/ready on %s', (dialect) => {
  const db = useTestDatabase(dialect);

  it(`answers both without Redis (${dialectLabel(dialect)})`, async () => {
    const t = await createTestApp(db());
    const health = await t.get('/api/health');
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });

    const ready = await t.get('/api/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true, database: 'ok', redis: 'off' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/ready with the database down', () => {
  const db = useTestDatabase('sqlite');

  it('answers 503 not_ready naming the database (sqlite, closed), while /api/health stays 200', async () => {
    const t = await createTestApp(db());
    expect((await t.get('/api/ready')).statusCode).toBe(200);
    await db().destroy();

    const ready = await t.get('/api/ready');
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual(notReady({ database: 'failed', redis: 'off' }));
    expect(ready.body).not.toContain('not open');
    expect((await t.get('/api/health')).json()).toEqual({ ok: true });
  });

  it.runIf(testDatabaseUrl !== undefined)(
    'answers 503 while PostgreSQL cannot be reached, and 200 again once it can (needs TEST_DATABASE_URL)',
    async () => {
      const url = new URL(testDatabaseUrl!);
      const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      const admin = new pg.Pool({ connectionString: testDatabaseUrl, max: 1 });
      const schema = `test_${randomUUID().replaceAll('-', '')}`;
      await admin.query(`create schema ${schema}`);
      const proxied = new URL(testDatabaseUrl!);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(proxy.port);
      const pool = createPostgresPool({
        connectionString: proxied.href,
        max: 2,
        connectionTimeoutMillis: 500,
        options: `-c search_path=${schema}`,
      });
      const proxiedDb = createPostgresDatabase(pool);
      try {
        const t = await createTestApp(proxiedDb);
        expect((await t.get('/api/ready')).json()).toEqual({ ok: true, database: 'ok', redis: 'off' });

        await proxy.cut();
        const ready = await t.get('/api/ready');
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toEqual(notReady({ database: 'failed', redis: 'off' }));
        expectNoSecrets(ready, String(proxy.port), url.username);

        await proxy.restore();
        await vi.waitFor(async () => expect((await t.get('/api/ready')).statusCode).toBe(200), {
          timeout: 5_000,
          interval: 100,
        });
        await t.app.close();
      } finally {
        await proxiedDb.destroy();
        await proxy.close();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
  );
});

describe.runIf(testRedisUrl !== undefined)(`GET /api/ready with Redis ${NEEDS_TEST_REDIS_URL}`, () => {
  const db = useTestDatabase('sqlite');
  const prefix = useRedisKeyPrefix();

  it('checks Redis with PING: 503 naming Redis while it is unreachable, 200 once it is back', async () => {
    const proxy = await startTcpProxy(redisHostPort(testRedisUrl!));
    try {
      const t = await createTestApp(db(), {
        config: { redis: { url: viaProxy(testRedisUrl!, proxy.port), keyPrefix: prefix() } },
      });
      const ready = await t.get('/api/ready');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ok: true, database: 'ok', redis: 'ok' });

      await proxy.cut();
      const down = await t.get('/api/ready');
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual(notReady({ database: 'ok', redis: 'failed' }));
      expectNoSecrets(down, String(proxy.port));
      // Liveness does not depend on Redis.
      expect((await t.get('/api/health')).statusCode).toBe(200);

      await proxy.restore();
      await vi.waitFor(async () => expect((await t.get('/api/ready')).statusCode).toBe(200), {
        timeout: 15_000,
        interval: 250,
      });
    } finally {
      await proxy.close();
    }
  });

  it('answers 503 within about a second when Redis accepts the connection but never answers', async () => {
    const proxy = await startTcpProxy(redisHostPort(testRedisUrl!));
    try {
      const t = await createTestApp(db(), {
        config: { redis: { url: viaProxy(testRedisUrl!, proxy.port), keyPrefix: prefix() } },
      });
      proxy.silence();
      const started = performance.now();
      const down = await t.get('/api/ready');
      const elapsed = performance.now() - started;
      expect(down.statusCode).toBe(503);
      expect(down.json()).toEqual(notReady({ database: 'ok', redis: 'failed' }));
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(3_000);
      await t.app.close();
    } finally {
      await proxy.close();
    }
  });
});
