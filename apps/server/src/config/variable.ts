import type { Parser } from './parsers.js';

/** How one environment variable is read (its parser and default) and documented (its README row). */
export type ConfigVariable<T> = {
  /** The text used when the variable is unset, parsed like a set value; without one, unset is `undefined`. */
  readonly default?: string;
  readonly parse: Parser<T>;
  /** The README's "default" column; by default the `default` in backticks, or "unset" without one. */
  readonly defaultDoc?: string;
} & (
  | {
      /** The README's "what it does" (Markdown). */
      readonly doc: string;
      readonly docWith?: never;
    }
  | {
      /** The variable whose README row documents this one too (`TWILIO_AUTH_TOKEN` in `TWILIO_ACCOUNT_SID`'s). */
      readonly docWith: string;
      readonly doc?: never;
    }
);

/** Variables named by a prefix and a suffix, such as `RPC_URL_<chainId>`: one value per variable set. */
export interface ConfigVariableFamily<T> {
  /** What every name of the family starts with; the table's key names the family (`RPC_URL_<chainId>`). */
  readonly prefix: string;
  /** One variable of the family, for the README, e.g. `RPC_URL_8453`. */
  readonly example: string;
  /** Parses one variable; `name` is the whole name, whose suffix the parser checks too. */
  readonly parse: Parser<T>;
  readonly defaultDoc: string;
  readonly doc: string;
}

/** An entry of the table: a variable (the table's key is its name), or a family of them. */
export type ConfigEntry = ConfigVariable<unknown> | ConfigVariableFamily<unknown>;

/** The value a table entry reads: a family's by suffix, a variable's with its default, else maybe unset. */
export type ValueOf<E> = E extends { prefix: string; parse: Parser<infer T> }
  ? Readonly<Record<string, T>>
  : E extends { parse: Parser<infer T> }
    ? E extends { default: string }
      ? T
      : T | undefined
    : never;

/** Whether an entry is a family of variables. */
export function isFamily(entry: ConfigEntry): entry is ConfigVariableFamily<unknown> {
  return 'prefix' in entry;
}

/**
 * Reads every variable of `table` from `env`, in the table's order: a value is trimmed, and an empty one is
 * unset. Each parser sees only its own variable; rules between variables come after, in `loadConfig`.
 *
 * @throws {ConfigError} from the first parser that refuses its variable.
 */
export function readVariables<Table extends Readonly<Record<string, ConfigEntry>>>(
  table: Table,
  env: NodeJS.ProcessEnv,
): { [Name in keyof Table]: ValueOf<Table[Name]> } {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const values: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(table)) {
    if (isFamily(entry)) {
      const family: Record<string, unknown> = {};
      const names = Object.keys(env)
        .filter((name) => name.startsWith(entry.prefix))
        .sort();
      for (const name of names) {
        const text = read(name);
        if (text !== undefined) family[name.slice(entry.prefix.length)] = entry.parse(text, name);
      }
      values[key] = Object.freeze(family);
    } else {
      const text = read(key) ?? entry.default;
      values[key] = text === undefined ? undefined : entry.parse(text, key);
    }
  }
  return values as { [Name in keyof Table]: ValueOf<Table[Name]> };
}
