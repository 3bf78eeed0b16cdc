import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { Flag, IntRange, OptionalIntRange, TextLength } from './env-decorators';

class Sample {
  @IntRange(10, 120_000) TIMEOUT_MS = 100;
  @IntRange(1) BURST = 1;
  @OptionalIntRange(1, 65535) PORT?: number;
  @Flag() WORKER = true;
  @TextLength(32) SECRET = 'x'.repeat(32);
  @TextLength(8, 256) PASSWORD = 'x'.repeat(8);
  @TextLength(1) DIR = '.';
}

/** Each distinct message (a text that is no number fails every check of its range with the one message). */
const problems = (raw: Record<string, unknown>) => [
  ...new Set(
    validateSync(plainToInstance(Sample, raw, { exposeDefaultValues: true })).flatMap((e) =>
      Object.values(e.constraints ?? {}),
    ),
  ),
];

describe('the environment’s declarations', () => {
  it('read text as the kind declares, and take what is within its range', () => {
    const sample = plainToInstance(Sample, { TIMEOUT_MS: ' 120000 ', BURST: '7', PORT: '', WORKER: 'No' });
    expect(sample).toMatchObject({ TIMEOUT_MS: 120_000, BURST: 7, PORT: undefined, WORKER: false });
    expect(problems({ TIMEOUT_MS: '10', PORT: '65535', WORKER: 'YES' })).toEqual([]);
  });

  it('word each refusal from the declared range, once per variable', () => {
    expect(problems({ TIMEOUT_MS: '9' })).toEqual(['TIMEOUT_MS must be an integer between 10 and 120000']);
    expect(problems({ TIMEOUT_MS: '120001' })).toEqual(['TIMEOUT_MS must be an integer between 10 and 120000']);
    expect(problems({ TIMEOUT_MS: '1.5' })).toEqual(['TIMEOUT_MS must be an integer between 10 and 120000']);
    expect(problems({ BURST: '0' })).toEqual(['BURST must be a positive integer']);
    expect(problems({ PORT: '0' })).toEqual(['PORT must be an integer between 1 and 65535']);
    expect(problems({ WORKER: 'maybe' })).toEqual(['WORKER must be true or false']);
    expect(problems({ SECRET: 'short' })).toEqual(['SECRET must be at least 32 characters']);
    expect(problems({ PASSWORD: 'x'.repeat(257) })).toEqual(['PASSWORD must be at most 256 characters']);
    expect(problems({ DIR: '' })).toEqual(['DIR must not be empty']);
  });
});
