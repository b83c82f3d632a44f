import { PAGE_SIZE } from '@dial/web/activity/pageSize';
import { describe, expect, it } from 'vitest';
import { WALLET_PAGE_SIZE } from './activity.mjs';

describe('the history section', () => {
  it('asks for the first page the wallet’s activity list asks for', () => {
    expect(WALLET_PAGE_SIZE).toBe(PAGE_SIZE);
  });
});
