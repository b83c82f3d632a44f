/** A setting is missing or wrong: the message names the variable and says what to do. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
