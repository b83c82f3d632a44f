import type { ConfigEntry } from './variable.js';
import { isFamily } from './variable.js';
import { CONFIG_VARIABLES, TEST_VARIABLES } from './variables.js';

/** Where the README's configuration table starts and ends; `npm run docs:config` rewrites what is between. */
export const CONFIG_TABLE_START =
  '<!-- config-table:start: written by `npm run docs:config` from apps/server/src/config/variables.ts -->';
export const CONFIG_TABLE_END = '<!-- config-table:end -->';

/**
 * The README's configuration table (Markdown), one row per variable of `CONFIG_VARIABLES` in its order
 * (variables documented together share a row), then the tests' variables.
 */
export function renderConfigTable(): string {
  const table: Readonly<Record<string, ConfigEntry>> = CONFIG_VARIABLES;
  const rows = ['| variable | default | what it does |', '|---|---|---|'];
  for (const [name, entry] of Object.entries(table)) {
    if (isFamily(entry)) {
      rows.push(row(`\`${name}\` (e.g. \`${entry.example}\`)`, entry.defaultDoc, entry.doc));
      continue;
    }
    if (entry.doc === undefined) continue;
    const names = [name, ...Object.keys(table).filter((other) => docWithOf(table[other]) === name)];
    const defaultDoc = entry.defaultDoc ?? (entry.default === undefined ? 'unset' : `\`${entry.default}\``);
    rows.push(row(names.map((each) => `\`${each}\``).join(', '), defaultDoc, entry.doc));
  }
  for (const [name, variable] of Object.entries(TEST_VARIABLES)) {
    rows.push(row(`\`${name}\``, variable.defaultDoc, variable.doc));
  }
  return rows.join('\n');
}

/**
 * `readme` with the text between {@link CONFIG_TABLE_START} and {@link CONFIG_TABLE_END} replaced by
 * {@link renderConfigTable}'s.
 *
 * @throws {Error} when the markers are missing.
 */
export function writeConfigTable(readme: string): string {
  const start = readme.indexOf(CONFIG_TABLE_START);
  const end = readme.indexOf(CONFIG_TABLE_END);
  if (start === -1 || end < start) {
    throw new Error(`The README has no ${CONFIG_TABLE_START} … ${CONFIG_TABLE_END} markers.`);
  }
  return `${readme.slice(0, start + CONFIG_TABLE_START.length)}\n${renderConfigTable()}\n${readme.slice(end)}`;
}

function row(names: string, defaultDoc: string, doc: string): string {
  // A `|` would end the cell.
  for (const cell of [names, defaultDoc, doc]) {
    if (cell.includes('|')) throw new Error(`A configuration table cell holds a "|": ${cell}`);
  }
  return `| ${names} | ${defaultDoc} | ${doc} |`;
}

function docWithOf(entry: ConfigEntry | undefined): string | undefined {
  return entry === undefined || isFamily(entry) ? undefined : entry.docWith;
}
