import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderConfigTable, writeConfigTable } from '../src/config/configTable.js';
import { CONFIG_VARIABLES } from '../src/config/index.js';

const README = new URL('../../../README.md', import.meta.url);

describe("the README's configuration table", () => {
  it('is the one `npm run docs:config` writes from the table of variables', () => {
    const readme = readFileSync(README, 'utf8');
    expect(writeConfigTable(readme), 'README.md is stale: run `npm run docs:config`').toBe(readme);
  });

  it('has a row naming every variable the server reads', () => {
    const table = renderConfigTable();
    for (const name of Object.keys(CONFIG_VARIABLES)) expect(table).toContain(`\`${name}\``);
  });

  it('documents a grouped variable in the row of a variable that has a row', () => {
    for (const [name, entry] of Object.entries(CONFIG_VARIABLES)) {
      if (!('docWith' in entry)) continue;
      const head = (CONFIG_VARIABLES as Record<string, { doc?: string }>)[entry.docWith];
      expect(head?.doc, `${name} is documented with ${entry.docWith}`).toEqual(expect.any(String));
    }
  });

  it('refuses a README without the markers', () => {
    expect(() => writeConfigTable('# Dial\n')).toThrow(/config-table:start/);
  });
});
