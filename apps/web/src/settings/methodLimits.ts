import type { SignInMethod } from '../api/types';

/** Why a method cannot be removed here (the server refuses it too: `last_method`), or null when it can. */
export function removalBlockedReason(methods: readonly SignInMethod[]): string | null {
  return methods.length <= 1
    ? 'This is your only way to sign in, so it cannot be removed. Add another one first.'
    : null;
}

/** Why no method can be added (the server refuses it too: `methods_limit_reached`), or null when one can. */
export function additionBlockedReason(count: number, max: number): string | null {
  return count >= max
    ? `You have ${max} sign-in methods, the most this Dial allows. Remove one to add another.`
    : null;
}

/** How many methods the person has of how many they may have: "3 of 5". */
export function methodCount(count: number, max: number): string {
  return `${count} of ${max}`;
}
