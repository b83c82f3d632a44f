import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startRepeatingTask } from '../src/system/repeatingTask.js';

describe('startRepeatingTask', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs on every interval and skips a run while the last is still at work', async () => {
    let started = 0;
    let finish: (() => void) | undefined;
    const task = startRepeatingTask(
      () => {
        started++;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      1_000,
      () => {},
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(1);
    // Three more intervals pass while the first run is still at work: none starts.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(started).toBe(1);
    finish?.();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(started).toBe(2);
    finish?.();
    await task.stop();
  });

  it('hands a failed run to onError and keeps running', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = startRepeatingTask(
      async () => {
        runs++;
        if (runs === 1) throw new Error('chain not readable');
      },
      500,
      (error) => errors.push(error),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('chain not readable');
    await task.stop();
  });

  it('stop waits for the run at work and starts no other', async () => {
    let finish: (() => void) | undefined;
    let runs = 0;
    let finished = false;
    const task = startRepeatingTask(
      () => {
        runs++;
        return new Promise<void>((resolve) => {
          finish = () => {
            finished = true;
            resolve();
          };
        });
      },
      100,
      () => {},
    );
    await vi.advanceTimersByTimeAsync(100);
    let stopped = false;
    const stopping = task.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish?.();
    await stopping;
    expect(finished).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(1);
  });
});
