import { guardFormula, unguardFormula } from './csv-formula-cells';

describe('formula-like cells', () => {
  it('writes a leading quote before =, +, -, @, a tab or a carriage return, and reads it back off', () => {
    for (const value of ["=cmd|' /C calc'!A0", '=IMPORTXML("http://x", "//a")', '+1', '-5', '@SUM(A1)', '\tx', '\rx']) {
      expect(guardFormula(value)).toBe(`'${value}`);
      expect(unguardFormula(guardFormula(value))).toBe(value);
    }
  });

  it('leaves other cells alone, a quote before anything else included', () => {
    for (const value of ['Linen shirt', "'quoted", "it's", '', '1=1', ' =x']) {
      expect(guardFormula(value)).toBe(value);
      expect(unguardFormula(value)).toBe(value);
    }
  });

  it('round-trips values that already start with quotes before a formula character', () => {
    for (const value of ["'=x", "''+1", "'@"]) {
      expect(guardFormula(value)).toBe(`'${value}`);
      expect(unguardFormula(guardFormula(value))).toBe(value);
    }
    // A file's own `'=x` is read as the export would have meant it.
    expect(unguardFormula("'=x")).toBe('=x');
  });
});
