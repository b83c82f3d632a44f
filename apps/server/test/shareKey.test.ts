import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.js';
import { readShareKey } from '../src/crypto/readShareKey.js';

describe('readShareKey (main.ts)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'dial-key-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('generates the key into DATA_DIR/share-encryption.key with mode 0600 once, then reuses it', () => {
    const first = readShareKey(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).shareKey);
    const path = join(dataDir, 'share-encryption.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    const second = readShareKey(loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' }).shareKey);
    expect(Buffer.from(second)).toEqual(Buffer.from(first));
    expect(first).toHaveLength(32);
  });

  it('creates DATA_DIR when it does not exist yet', () => {
    const key = readShareKey(loadConfig({ DATA_DIR: join(dataDir, 'a', 'b'), NODE_ENV: 'test' }).shareKey);
    expect(Buffer.from(key).toString('hex')).toBe(
      readFileSync(join(dataDir, 'a', 'b', 'share-encryption.key'), 'utf8').trim(),
    );
  });

  it('uses SHARE_ENCRYPTION_KEY when set, writing no file', () => {
    const hex = 'cd'.repeat(32);
    const key = readShareKey(loadConfig({ DATA_DIR: dataDir, SHARE_ENCRYPTION_KEY: hex }).shareKey);
    expect(Buffer.from(key).toString('hex')).toBe(hex);
    expect(() => statSync(join(dataDir, 'share-encryption.key'))).toThrow(/ENOENT/);
  });

  it('refuses a key file that does not hold a key, naming it', () => {
    const path = join(dataDir, 'share-encryption.key');
    writeFileSync(path, 'not a key\n');
    expect(() => readShareKey({ kind: 'file', path })).toThrow(ConfigError);
    expect(() => readShareKey({ kind: 'file', path })).toThrow(
      `${path} does not hold a valid key (64 hex characters): fix or remove it.`,
    );
  });
});
