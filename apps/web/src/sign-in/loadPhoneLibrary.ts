import { useEffect, useState } from 'react';
import type { SignInDraft } from './prepareOtpRequest';

export type PhoneLibrary = typeof import('./phoneLibrary');

/** A module loaded once on demand: `now()` has it once loaded; `load()` starts it (again after a failure). */
export interface Loader<T> {
  now(): T | undefined;
  load(): Promise<T>;
}

export function createLoader<T>(importer: () => Promise<T>): Loader<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    now: () => loaded,
    load() {
      loading ??= importer().then(
        (module) => {
          loaded = module;
          return module;
        },
        (error: unknown) => {
          // Offline for a moment: the next call tries again.
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
  };
}

/**
 * The phone library of the sign-in form and the other phone fields. The sign-in form's first load leaves it
 * out (importGraph.test.ts, `npm run size`): the form starts it once it shows.
 */
export const phoneLibrary: Loader<PhoneLibrary> = createLoader(() => import('./phoneLibrary'));

/** The phone library once loaded (a re-render then), starting to load it after the first render. */
export function usePhoneLibrary(loader: Loader<PhoneLibrary> = phoneLibrary): PhoneLibrary | undefined {
  const [library, setLibrary] = useState(loader.now);
  useEffect(() => {
    if (library !== undefined) return;
    let current = true;
    loader.load().then(
      (loaded) => {
        if (current) setLibrary(() => loaded);
      },
      // The form works on without it (unformatted); sending the code loads it again, and says so if it fails.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [library, loader]);
  return library;
}

/**
 * The sign-in form's check of `draft` (`prepareOtpRequest`), once the phone library is there: at once when
 * it is, else after waiting for it. A phone number typed before it loaded is unformatted: it is formatted
 * first, as the field does once the library arrives (and as a paste would be), so the check sees what it
 * would have seen had the library been there all along. Returns the draft checked, to show.
 */
export async function checkSignInDraft(
  draft: SignInDraft,
  countryName: (code: string) => string,
  loader: Loader<PhoneLibrary> = phoneLibrary,
): Promise<{ draft: SignInDraft; request: ReturnType<PhoneLibrary['prepareOtpRequest']> }> {
  let library = loader.now();
  let checked = draft;
  if (library === undefined) {
    library = await loader.load();
    checked = formatDraft(library, draft);
  }
  return { draft: checked, request: library.prepareOtpRequest(checked, countryName) };
}

/** The draft with its phone number formatted as the phone field formats it (the e-mail address as it is). */
export function formatDraft(
  library: Pick<PhoneLibrary, 'formatPhoneInput'>,
  draft: SignInDraft,
): SignInDraft {
  if (draft.channel !== 'sms' || draft.phone.trim() === '') return draft;
  const { text, countryCode } = library.formatPhoneInput(draft.phone, draft.countryCode);
  return text === draft.phone && countryCode === draft.countryCode
    ? draft
    : { ...draft, phone: text, countryCode };
}
