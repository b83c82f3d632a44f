import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';

// Counted: naming and sorting every country (tens of ms on a slow phone), and the phone library's chunk.
const counted = vi.hoisted(() => ({ listCountries: 0, phoneLibrary: 0 }));
vi.mock('@dial/core', async (importOriginal) => {
  const core = await importOriginal<typeof import('@dial/core')>();
  return {
    ...core,
    listCountries: (...args: Parameters<typeof core.listCountries>) => {
      counted.listCountries++;
      return core.listCountries(...args);
    },
  };
});
vi.mock('./phoneLibrary', async (importOriginal) => {
  counted.phoneLibrary++;
  return importOriginal();
});

const { SignInFlow } = await import('./SignInFlow');

describe('the sign-in form’s first render', () => {
  it('is the form with its phone field usable, without listing the countries or the phone library', () => {
    const html = renderToString(
      createElement(SignInFlow, {
        channels: ['sms', 'email'],
        onSignedIn: () => undefined,
        preloadNext: () => Promise.resolve(),
      }),
    );
    const phone = /<input[^>]*id="phone-number"[^>]*>/.exec(html)?.[0];
    expect(phone).toBeDefined();
    expect(phone).not.toMatch(/\b(?:disabled|readonly|readOnly)\b/);
    expect(html).toContain('Send code');
    // The country button shows its country without the list (its flag and calling code).
    expect(html).toMatch(/aria-label="Country: [A-Z]{2} \+\d+"/);
    expect(counted.listCountries).toBe(0);
    expect(counted.phoneLibrary).toBe(0);
  });
});
