import type { FastifyInstance } from 'fastify';

/** A task a server repeats on a timer; see {@link startRepeatingTask}. */
export interface RepeatingTask {
  /** Stops the timer and waits for the run at work, if any, so nothing touches the database after. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs`. A run still at work when the next is due makes that one skip, so runs never
 * overlap on one server. A run that fails goes to `onError` and the next runs as usual. The timer does not
 * keep the process alive. Work shared by several servers (transfer checks, chain ranges, expired rows) is
 * claimed in the database, so every server may run the same task.
 */
export function startRepeatingTask(
  run: () => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
): RepeatingTask {
  let running: Promise<void> | null = null;
  let stopped = false;
  const tick = () => {
    if (running !== null || stopped) return;
    running = Promise.resolve()
      .then(run)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * Runs the task `start` starts while `app` is open: started when the app is ready, stopped when it closes
 * (the run at work finished first, before the database closes: `buildApp` adds its own closing first, and
 * Fastify runs the `onClose` hooks last added first).
 */
export function runWhileOpen(app: FastifyInstance, start: () => RepeatingTask): void {
  let task: RepeatingTask | undefined;
  app.addHook('onReady', async () => {
    task = start();
  });
  app.addHook('onClose', async () => {
    await task?.stop();
  });
}
