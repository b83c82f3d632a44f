// `npm run report:sponsorships --workspace @dial/server -- [--days 7] [--url http://localhost:8080]`: the
// operator report of sponsored fees (GET /api/admin/sponsorships) printed as a table. It asks a running
// server, with OPERATOR_TOKEN from the environment (the server's own), so it reads what every server reads
// and never opens the database itself. The URL defaults to PUBLIC_URL, else http://localhost:$PORT.

/** The report as text: one line per UTC day and chain, then the accounts of each. */
export function formatReport(report) {
  const header = ['day', 'chain', 'count', 'max cost', 'actual cost', 'settled', 'cap', 'accounts'];
  const rows = report.rows.map((row) => [
    row.day,
    String(row.chainId),
    String(row.count),
    row.maxCost,
    row.actualCost,
    `${row.settled}/${row.count}`,
    row.cap ?? '-',
    row.accounts.map((account) => `${account.userId.slice(0, 8)}…×${account.count}`).join(' '),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column].length)),
  );
  const line = (cells) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]))
      .join('  ')
      .trimEnd();
  return [
    `Sponsored fees ${report.from} to ${report.to} (UTC; at most ${report.accountDailyLimit} per account a day)`,
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...(rows.length === 0 ? ['(none)'] : rows.map(line)),
  ].join('\n');
}

function option(args, name) {
  const index = args.indexOf(`--${name}`);
  return index === -1 ? undefined : args[index + 1];
}

async function main() {
  const args = process.argv.slice(2);
  const token = process.env.OPERATOR_TOKEN?.trim();
  if (!token) {
    console.error('Set OPERATOR_TOKEN (the server’s) to read the report.');
    process.exitCode = 1;
    return;
  }
  const base =
    option(args, 'url') ?? process.env.PUBLIC_URL?.trim() ?? `http://localhost:${process.env.PORT ?? '8080'}`;
  const days = option(args, 'days') ?? '7';
  const response = await fetch(new URL(`/api/admin/sponsorships?days=${encodeURIComponent(days)}`, base), {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    console.error(`The server answered ${response.status}: ${body?.error?.message ?? 'no report'}`);
    process.exitCode = 1;
    return;
  }
  console.log(formatReport(body));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
