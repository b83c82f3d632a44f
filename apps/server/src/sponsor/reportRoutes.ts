import { createHash, timingSafeEqual } from 'node:crypto';
import { type SponsorshipReport, sponsorshipReportRoute } from '@dial/api';
import { DAY_MS, DialError } from '@dial/core';
import { formatEther } from 'viem';
import type { AppContext } from '../appContext.js';
import { rateKey } from '../config/rateKey.js';
import type { TypedApp } from '../http/typedApp.js';
import { ipSubject } from '../rateLimit/ipSubject.js';
import { settleSponsorships } from './actualCost.js';
import { listSponsorships, type SponsorshipRow, utcDay } from './sponsorStore.js';

/** The days a report covers by default, today included. */
export const DEFAULT_REPORT_DAYS = 7;

/**
 * `GET /api/admin/sponsorships?days=7`: the operator's report, behind `Authorization: Bearer
 * <OPERATOR_TOKEN>`. Without a configured token the route answers `404 not_found` (as if it did not exist);
 * with one, a missing or wrong token answers `401 unauthorized`, compared in constant time (SHA-256 of each
 * side, so their lengths do not show either). Counted per IP address before the token is compared.
 */
export function registerReportRoutes(app: TypedApp, ctx: AppContext): void {
  app.get(
    sponsorshipReportRoute.url,
    { schema: sponsorshipReportRoute.schema },
    async (request): Promise<SponsorshipReport> => {
      const token = ctx.config.sponsorship.operatorToken;
      if (token === null) throw new DialError('not_found');
      await ctx.rateLimiter.consume(
        rateKey('operatorReportsPerIp', ipSubject(request.ip, ctx.config.ipv6PrefixLength)),
        ctx.config.rateLimits.operatorReportsPerIp,
        ctx.now(),
      );
      if (!bearerMatches(request.headers.authorization, token)) {
        throw new DialError('unauthorized', {
          message: 'The operator report needs Authorization: Bearer <OPERATOR_TOKEN>.',
        });
      }
      const now = ctx.now();
      const days = request.query.days ?? DEFAULT_REPORT_DAYS;
      const from = utcDay(new Date(now.getTime() - (days - 1) * DAY_MS));
      const rows = await listSponsorships(ctx.db, from);
      await settleSponsorships(ctx, rows, request.log);
      return {
        from,
        to: utcDay(now),
        accountDailyLimit: ctx.config.sponsorship.accountDailyLimit,
        rows: summarize(rows, ctx.config.sponsorship.dailyCapsWei),
      };
    },
  );
}

/** Whether an `Authorization` header carries `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer (\S+)$/i.exec(header?.trim() ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(token)) && given !== '';
}

/** The report's rows: per UTC day and chain, the counts and sums, the accounts, the cap in force. */
export function summarize(
  rows: readonly SponsorshipRow[],
  caps: Readonly<Record<number, bigint>>,
): SponsorshipReport['rows'] {
  const groups = new Map<string, SponsorshipRow[]>();
  for (const row of rows) {
    const key = `${row.day} ${row.chainId}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as SponsorshipRow;
    const maxCostWei = group.reduce((sum, row) => sum + row.maxCostWei, 0n);
    const settled = group.filter((row) => row.actualCostWei !== null);
    const actualCostWei = settled.reduce((sum, row) => sum + (row.actualCostWei ?? 0n), 0n);
    const accounts = new Map<string, number>();
    for (const row of group) accounts.set(row.userId, (accounts.get(row.userId) ?? 0) + 1);
    const cap = caps[first.chainId];
    return {
      day: first.day,
      chainId: first.chainId,
      count: group.length,
      maxCostWei: maxCostWei.toString(),
      maxCost: formatEther(maxCostWei),
      actualCostWei: actualCostWei.toString(),
      actualCost: formatEther(actualCostWei),
      settled: settled.length,
      capWei: cap === undefined ? null : cap.toString(),
      cap: cap === undefined ? null : formatEther(cap),
      accounts: [...accounts]
        .map(([userId, count]) => ({ userId, count }))
        .sort((a, b) => b.count - a.count || a.userId.localeCompare(b.userId)),
    };
  });
}
