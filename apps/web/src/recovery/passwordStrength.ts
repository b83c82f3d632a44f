import { type FeedbackType, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary, translations } from '@zxcvbn-ts/language-en';

/**
 * The lowest zxcvbn score a new recovery password may have. 3 is "safely unguessable" in zxcvbn's words:
 * about 10^8 guesses or more, against 10 an hour through the server (its OPRF counts each one). Below it are
 * the common passwords, names and words alone, keyboard rows, dates and their light variations.
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * zxcvbn with the common passwords (`language-common`) and English words, names and Wikipedia's vocabulary
 * (`language-en`): some 2 MB of words, which is why this module runs in a worker the recovery setup starts
 * (passwordStrengthWorker.ts), never in the sign-in form's code (importGraph.test.ts, `npm run size`).
 */
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...commonDictionary, ...englishDictionary },
  graphs: adjacencyGraphs,
  translations: {
    ...translations,
    warnings: {
      ...translations.warnings,
      // "There should not be any personal or page related data." says what, not why.
      userInputs: 'It contains your phone number or e-mail address, or the name of this app.',
    },
  },
});

/**
 * Why a new recovery password is too easy to guess, and what would be better, in plain words: zxcvbn's
 * warning and suggestions after "Too easy to guess.". Null when its score is {@link MIN_PASSWORD_SCORE} or
 * more.
 *
 * @param userInputs - Words a guesser would try first for this person: their phone number, e-mail address,
 *   the app's name (`passwordUserInputs`).
 */
export function findPasswordWeakness(password: string, userInputs: readonly string[]): string | null {
  const { score, feedback } = zxcvbn.check(password, [...userInputs]);
  return score >= MIN_PASSWORD_SCORE ? null : describeWeakness(feedback);
}

function describeWeakness({ warning, suggestions }: FeedbackType): string {
  const why = warning !== null && warning !== '' ? [warning] : [];
  const better = suggestions.length > 0 ? suggestions : ['Add another word or two that are less common.'];
  return ['Too easy to guess.', ...why, ...better].join(' ');
}
