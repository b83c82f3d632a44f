import { describe, expect, it } from 'vitest';
import { prepareOtpRequest, type SignInDraft } from './prepareOtpRequest';

const names: Record<string, string> = { GB: 'United Kingdom', US: 'United States', DE: 'Germany' };
const countryName = (code: string) => names[code] ?? code;
const draft = (patch: Partial<SignInDraft>): SignInDraft => ({
  channel: 'sms',
  countryCode: 'GB',
  phone: '',
  email: '',
  ...patch,
});

describe('prepareOtpRequest', () => {
  it('sends a valid national number as E.164 and shows it grouped', () => {
    expect(prepareOtpRequest(draft({ phone: '07400 123456' }), countryName)).toEqual({
      ok: true,
      channel: 'sms',
      to: '+447400123456',
      display: '+44 7400 123456',
    });
  });

  it('reads an international number whatever country is picked', () => {
    const request = prepareOtpRequest(draft({ countryCode: 'US', phone: '+49 1512 3456789' }), countryName);
    expect(request).toMatchObject({ ok: true, to: '+4915123456789' });
  });

  it('refuses a number too short for the country, naming the country', () => {
    expect(prepareOtpRequest(draft({ phone: '123' }), countryName)).toEqual({
      ok: false,
      message: 'Enter a valid phone number for United Kingdom.',
    });
  });

  it('refuses letters with the same message', () => {
    expect(prepareOtpRequest(draft({ phone: 'call me' }), countryName)).toEqual({
      ok: false,
      message: 'Enter a valid phone number for United Kingdom.',
    });
  });

  it('asks for a number when the field is empty', () => {
    expect(prepareOtpRequest(draft({ phone: '  ' }), countryName)).toEqual({
      ok: false,
      message: 'Enter your phone number.',
    });
  });

  it('sends an e-mail address trimmed and lower-cased', () => {
    expect(prepareOtpRequest(draft({ channel: 'email', email: ' Ada@Example.COM ' }), countryName)).toEqual({
      ok: true,
      channel: 'email',
      to: 'ada@example.com',
      display: 'ada@example.com',
    });
  });

  it('refuses an address without a domain', () => {
    expect(prepareOtpRequest(draft({ channel: 'email', email: 'ada@localhost' }), countryName)).toEqual({
      ok: false,
      message: 'Enter a valid email address, like name@example.com.',
    });
  });
});
