import { formatPhoneInput } from '@dial/core';
import { describe, expect, it, vi } from 'vitest';
import { countryName } from './countryList';
import { checkSignInDraft, createLoader, type Loader, type PhoneLibrary } from './loadPhoneLibrary';
import { applyPhoneEdit } from './phoneEditing';
import * as library from './phoneLibrary';
import { prepareOtpRequest, type SignInDraft } from './prepareOtpRequest';

/** A loader whose import the test finishes (`arrive`), counting the imports. */
function pendingLoader() {
  let arrive!: () => void;
  const importer = vi.fn(
    () =>
      new Promise<PhoneLibrary>((resolve) => {
        arrive = () => resolve(library);
      }),
  );
  const loader = createLoader(importer);
  return { loader, importer, arrive: () => arrive() };
}

const loaded: Loader<PhoneLibrary> = { now: () => library, load: () => Promise.resolve(library) };

/** The phone field's draft after typing `text` one character at a time, with the library there (as typed). */
function typedWithLibrary(text: string, countryCode: string): SignInDraft {
  let draft: SignInDraft = { channel: 'sms', countryCode, phone: '', email: '' };
  for (const char of text) {
    const next = draft.phone + char;
    const edit = applyPhoneEdit(
      {
        previous: draft.phone,
        next,
        caret: next.length,
        deletingBackward: false,
        countryCode: draft.countryCode,
      },
      formatPhoneInput,
    );
    draft = { ...draft, phone: edit.text, countryCode: edit.countryCode };
  }
  return draft;
}

describe('the phone library, loaded after the sign-in form shows', () => {
  it('is imported once, and again only after a failed import', async () => {
    const importer = vi
      .fn<() => Promise<PhoneLibrary>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(library);
    const loader = createLoader(importer);
    expect(loader.now()).toBeUndefined();
    await expect(loader.load()).rejects.toThrow('offline');
    expect(loader.now()).toBeUndefined();
    const [first, second] = [loader.load(), loader.load()];
    await expect(first).resolves.toBe(library);
    await expect(second).resolves.toBe(library);
    expect(loader.now()).toBe(library);
    await loader.load();
    expect(importer).toHaveBeenCalledTimes(2);
  });

  it('is what the form checks with when it is there', async () => {
    const draft: SignInDraft = { channel: 'sms', countryCode: 'GB', phone: '07400 123456', email: '' };
    const { request, draft: checked } = await checkSignInDraft(draft, countryName, loaded);
    expect(checked).toBe(draft);
    expect(request).toEqual(prepareOtpRequest(draft, countryName));
    expect(request).toEqual({ ok: true, channel: 'sms', to: '+447400123456', display: '+44 7400 123456' });
  });

  it.each([
    ['07400123456', 'GB'],
    ['7400123456', 'GB'],
    ['+447400123456', 'US'],
    ['00447400123456', 'US'],
    ['+447911123456', 'GG'],
    ['+14162345678', 'US'],
    ['2015550123', 'US'],
    ['0612345678', 'FR'],
    ['+33612345678', 'GB'],
    ['07700900123', 'GB'],
    ['0740', 'GB'],
    ['1234567890123456', 'DE'],
    ['+800 1234 5678', 'US'],
    ['07400-123 456', 'GB'],
    ['(201) 555-0123', 'US'],
    ['abc', 'GB'],
    ['   ', 'GB'],
  ])('checks %s (%s), typed before it loaded, exactly as if it had been there', async (text, country) => {
    const { loader, importer, arrive } = pendingLoader();
    const typedBefore: SignInDraft = { channel: 'sms', countryCode: country, phone: text, email: '' };
    const checking = checkSignInDraft(typedBefore, countryName, loader);
    // "Send code" pressed before the library arrived: the check waits for it.
    expect(importer).toHaveBeenCalledTimes(1);
    arrive();
    const { request, draft } = await checking;

    const typedAfter = typedWithLibrary(text, country);
    expect(request).toEqual(prepareOtpRequest(typedAfter, countryName));
    if (text.trim() !== '') {
      expect({ phone: draft.phone, countryCode: draft.countryCode }).toEqual({
        phone: typedAfter.phone,
        countryCode: typedAfter.countryCode,
      });
    }
  });

  it.each(['name@example.com', ' Name@Example.COM ', 'not an address', ''])(
    'checks the e-mail address %j the same, before or after it loaded',
    async (email) => {
      const { loader, arrive } = pendingLoader();
      const draft: SignInDraft = { channel: 'email', countryCode: 'GB', phone: '07400', email };
      const checking = checkSignInDraft(draft, countryName, loader);
      arrive();
      const checked = await checking;
      expect(checked.draft).toBe(draft);
      expect(checked.request).toEqual(prepareOtpRequest(draft, countryName));
    },
  );
});
