import { passwordProblem } from './password-policy';

describe('passwordProblem (contract §19)', () => {
  const email = 'marta.jones@shop.example';

  it('takes 12 to 256 characters, counted as code points', () => {
    expect(passwordProblem('a'.repeat(11) + 'Z', email)).toBeNull();
    expect(passwordProblem('short-pass1', email)).toBe('Password must have 12 to 256 characters');
    expect(passwordProblem('x'.repeat(257), email)).toBe('Password must have 12 to 256 characters');
    expect(passwordProblem('y'.repeat(256), email)).toBeNull();
    // Eleven emoji are 22 UTF-16 units but eleven characters.
    expect(passwordProblem('😀'.repeat(11), email)).toBe('Password must have 12 to 256 characters');
  });

  it('refuses the most common passwords in any case', () => {
    expect(passwordProblem('1qaz2wsx3edc', email)).toBe('Password too weak');
    expect(passwordProblem('QWERTY123456', email)).toBe('Password too weak');
  });

  it("refuses a password holding the e-mail's local part of 4+ characters, in any case", () => {
    expect(passwordProblem('my-MARTA.JONES-secret', email)).toBe('Password too weak');
    expect(passwordProblem('bob-is-a-strong-one', 'bob@shop.example')).toBeNull();
    expect(passwordProblem('never-an-na-choice', 'anna@shop.example')).toBeNull();
    expect(passwordProblem('xANNA-choice-1', 'anna@shop.example')).toBe('Password too weak');
  });
});
