import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError, parseKey, type ShareKeySource } from '../config/index.js';

/**
 * The 32-byte master key from where the configuration says it is: `SHARE_ENCRYPTION_KEY`'s value, or the
 * key file, which is generated (32 random bytes in hex, mode 0600) on the first start and read on later
 * ones. Called by `main.ts`, so that loading the configuration stays free of file system writes.
 *
 * @throws {ConfigError} when the file cannot be written, or does not hold a valid key.
 */
export function readShareKey(source: ShareKeySource): Uint8Array {
  if (source.kind === 'value') return source.key;
  const { path } = source;
  mkdirSync(dirname(path), { recursive: true });
  try {
    // 'wx' fails when the file exists, so two servers starting at once cannot overwrite each other's key.
    writeFileSync(path, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
    chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new ConfigError(`Cannot write the generated key to ${path}: ${(error as Error).message}`);
    }
  }
  try {
    return parseKey(readFileSync(path, 'utf8'));
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new ConfigError(`${path} does not hold a valid key (64 hex characters): fix or remove it.`);
    }
    throw error;
  }
}
