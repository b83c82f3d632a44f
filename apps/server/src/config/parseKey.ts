import { ConfigError } from './configError.js';

/**
 * Reads a 32-byte key written as 64 hex characters or as base64.
 *
 * @throws {ConfigError} when it is neither, or not 32 bytes.
 */
export function parseKey(text: string): Uint8Array {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/]{43}=?$/.test(trimmed) || /^[A-Za-z0-9_-]{43}$/.test(trimmed)) {
    bytes = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
  }
  if (bytes?.length !== 32) {
    throw new ConfigError(
      'SHARE_ENCRYPTION_KEY must be 32 bytes written as 64 hex characters or as base64 ' +
        '(generate one with `openssl rand -hex 32`).',
    );
  }
  return new Uint8Array(bytes);
}
