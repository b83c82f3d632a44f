import { DialError } from '@dial/core';
import type { StrengthReply, StrengthRequest } from './passwordStrengthWorker';

/** Why `password` is too easy to guess (plain words), or null when it is strong enough. */
export type JudgePassword = (password: string, userInputs: readonly string[]) => Promise<string | null>;

/** A strength check being started: `ready` once its dictionaries are loaded; `close` ends it. */
export interface StartedPasswordCheck {
  ready: Promise<JudgePassword>;
  close(): void;
}

/** How long the check's script (its dictionaries: some 800 KiB sent) may take before it counts as failed. */
const LOAD_TIMEOUT_MS = 30_000;

/**
 * Starts the strength check in a worker (passwordStrengthWorker.ts): its script, with zxcvbn's
 * dictionaries, is downloaded now, only by the screens that set a recovery password. Fails with
 * `network_error` when the script cannot be loaded (offline, a deployment that removed it) or takes longer
 * than 30 seconds.
 */
export function startPasswordCheckWorker(): StartedPasswordCheck {
  const worker = new Worker(new URL('./passwordStrengthWorker.ts', import.meta.url), { type: 'module' });
  const waiting = new Map<number, { resolve(weakness: string | null): void; reject(error: Error): void }>();
  let nextId = 0;
  let failure: Error | undefined;
  let rejectReady: (error: Error) => void = () => {};
  const fail = (error: Error) => {
    if (failure !== undefined) return;
    failure = error;
    clearTimeout(timer);
    worker.terminate();
    rejectReady(error);
    for (const waiter of waiting.values()) waiter.reject(error);
    waiting.clear();
  };
  const judge: JudgePassword = (password, userInputs) =>
    new Promise((resolve, reject) => {
      if (failure !== undefined) {
        reject(failure);
        return;
      }
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, password, userInputs } satisfies StrengthRequest);
    });
  const timer = setTimeout(
    () => fail(new DialError('network_error', { details: 'the password check did not load in time' })),
    LOAD_TIMEOUT_MS,
  );
  const ready = new Promise<JudgePassword>((resolve, reject) => {
    rejectReady = reject;
    worker.onmessage = (event: MessageEvent<StrengthReply>) => {
      const reply = event.data;
      if (reply.type === 'ready') {
        clearTimeout(timer);
        resolve(judge);
        return;
      }
      const waiter = waiting.get(reply.id);
      if (waiter === undefined) return;
      waiting.delete(reply.id);
      if (reply.type === 'verdict') waiter.resolve(reply.weakness);
      else waiter.reject(new DialError('internal_error', { details: reply.message }));
    };
    // A worker whose script cannot be fetched or evaluated: only an `error` event, with no detail.
    worker.onerror = (event) => {
      event.preventDefault();
      fail(new DialError('network_error', { details: 'the password check could not be loaded' }));
    };
  });
  return { ready, close: () => fail(new DialError('internal_error', { details: 'closed' })) };
}

/** The strength check of one screen: loaded once, loaded again after a failure. */
export interface PasswordCheck {
  /** The judge once loaded (and not failed since), else undefined. */
  now(): JudgePassword | undefined;
  /** Starts loading (again after a failure), or joins the loading under way. */
  load(): Promise<JudgePassword>;
  /** Ends the worker; a later `load` starts another. */
  close(): void;
}

/**
 * A strength check started on demand by `start` (a worker in the browser; tests pass one that imports
 * passwordStrength.ts). A failure, loading or judging, is forgotten so that the next `load` tries again.
 */
export function createPasswordCheck(
  start: () => StartedPasswordCheck = startPasswordCheckWorker,
): PasswordCheck {
  let started: StartedPasswordCheck | undefined;
  let loading: Promise<JudgePassword> | undefined;
  let loaded: JudgePassword | undefined;
  const forget = (which: StartedPasswordCheck) => {
    if (started !== which) return;
    which.close();
    started = undefined;
    loading = undefined;
    loaded = undefined;
  };
  return {
    now: () => loaded,
    load() {
      if (loading !== undefined) return loading;
      const current = start();
      started = current;
      loading = current.ready.then(
        (raw) => {
          const judge: JudgePassword = (password, userInputs) =>
            raw(password, userInputs).catch((error: unknown) => {
              forget(current);
              throw error;
            });
          if (started === current) loaded = judge;
          return judge;
        },
        (error: unknown) => {
          forget(current);
          throw error;
        },
      );
      return loading;
    },
    close() {
      if (started !== undefined) forget(started);
    },
  };
}
