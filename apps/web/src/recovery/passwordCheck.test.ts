import { DialError, isDialError } from '@dial/core';
import { describe, expect, it, vi } from 'vitest';
import { createPasswordCheck, type StartedPasswordCheck } from './passwordCheck';

/** The check as the worker runs it, imported here (Node has no Worker). */
function startInline(): StartedPasswordCheck {
  return {
    ready: import('./passwordStrength').then(
      ({ findPasswordWeakness }) =>
        async (password: string, userInputs: readonly string[]) =>
          findPasswordWeakness(password, userInputs),
    ),
    close: () => {},
  };
}

/** A start whose script cannot be downloaded (offline, or a deployment removed it). */
function startOffline(): StartedPasswordCheck {
  return {
    ready: Promise.reject(new DialError('network_error', { details: 'offline' })),
    close: () => {},
  };
}

describe('createPasswordCheck', () => {
  it('loads the check once and judges with it', async () => {
    const start = vi.fn(startInline);
    const check = createPasswordCheck(start);
    expect(check.now()).toBeUndefined();
    const [judge, again] = await Promise.all([check.load(), check.load()]);
    expect(again).toBe(judge);
    expect(check.now()).toBe(judge);
    await expect(judge('password123', [])).resolves.toMatch(/^Too easy to guess\. /);
    await expect(judge('plum orchard lantern 42', [])).resolves.toBeNull();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('fails to load without judging, and loads again when asked after the failure', async () => {
    const start = vi.fn(startOffline);
    const check = createPasswordCheck(start);
    const failed = await check.load().catch((error: unknown) => error);
    expect(isDialError(failed, 'network_error')).toBe(true);
    expect(check.now()).toBeUndefined();
    // The connection is back: "Check again" starts it anew.
    start.mockImplementation(startInline);
    const judge = await check.load();
    await expect(judge('password123', [])).resolves.toMatch(/commonly used password/);
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('forgets a check that failed while judging (a worker that died), so the next load starts another', async () => {
    const close = vi.fn();
    const start = vi.fn(
      (): StartedPasswordCheck => ({
        ready: Promise.resolve(async () => {
          throw new DialError('internal_error', { details: 'the worker died' });
        }),
        close,
      }),
    );
    const check = createPasswordCheck(start);
    const judge = await check.load();
    await expect(judge('plum orchard lantern 42', [])).rejects.toThrow(DialError);
    expect(close).toHaveBeenCalledTimes(1);
    expect(check.now()).toBeUndefined();
    await check.load();
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('ends the started check when closed', async () => {
    const close = vi.fn();
    const check = createPasswordCheck(() => ({ ...startInline(), close }));
    await check.load();
    check.close();
    expect(close).toHaveBeenCalledTimes(1);
    expect(check.now()).toBeUndefined();
  });
});
