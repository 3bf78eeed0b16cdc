import { ListenerHints } from './listener-hints';

describe('ListenerHints', () => {
  it('remembers a brand seen listening until it is seen not listening', () => {
    const hints = new ListenerHints();
    expect(hints.listens('key:a')).toBe(false);
    hints.saw('key:a', true);
    expect(hints.listens('key:a')).toBe(true);
    hints.saw('key:a', false);
    expect(hints.listens('key:a')).toBe(false);
  });

  it('keeps at most 10 000 guesses, dropping the oldest', () => {
    const hints = new ListenerHints();
    for (let i = 0; i <= 10_000; i++) hints.saw(`key:${i}`, true);
    expect(hints.listens('key:0')).toBe(false);
    expect(hints.listens('key:1')).toBe(true);
    expect(hints.listens('key:10000')).toBe(true);
  });
});
