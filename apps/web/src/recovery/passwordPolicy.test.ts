import { describe, expect, it } from 'vitest';
import { checkConfirmation, checkNewPassword, passwordUserInputs } from './passwordPolicy';

describe('checkNewPassword', () => {
  it('asks for at least 10 characters, saying how many there are', () => {
    expect(checkNewPassword('')).toBe('Choose a recovery password.');
    expect(checkNewPassword('short123')).toBe(
      'Use at least 10 characters (this one has 8). A few unrelated words work well.',
    );
    expect(checkNewPassword('          ')).toBe('The password cannot be only spaces.');
    expect(checkNewPassword('ten chars!')).toBeNull();
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkNewPassword('🔑🔑🔑🔑🔑🔑🔑🔑🔑')).toMatch(/this one has 9/);
  });
});

describe('checkConfirmation', () => {
  it('wants the same password again', () => {
    expect(checkConfirmation('ten chars!', '')).toBe('Type the password again to confirm it.');
    expect(checkConfirmation('ten chars!', 'ten chars?')).toBe('The two passwords are not the same.');
    expect(checkConfirmation('ten chars!', 'ten chars!')).toBeNull();
  });
});

describe('passwordUserInputs', () => {
  it("lists the person's phone number, e-mail address and its name, and the app's words", () => {
    expect(passwordUserInputs({ phone: '+447911123456', email: 'alice.smith@example.com' })).toEqual([
      'dial',
      'wallet',
      'recovery',
      '+447911123456',
      '447911123456',
      'alice.smith@example.com',
      'alice.smith',
    ]);
    expect(passwordUserInputs({ phone: null, email: null })).toEqual(['dial', 'wallet', 'recovery']);
  });
});
