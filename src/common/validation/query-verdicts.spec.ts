import { QueryVerdicts } from './query-verdicts';

class Page {
  limit = 50;
}

describe('QueryVerdicts', () => {
  it('keys a parsed query by its text, and leaves a long one unkeyed', () => {
    const verdicts = new QueryVerdicts();
    expect(verdicts.keyOf({ limit: '1' })).toBe('{"limit":"1"}');
    expect(verdicts.keyOf({ limit: '1', offset: '0' })).not.toBe(verdicts.keyOf({ limit: '1' }));
    expect(verdicts.keyOf({ type: 'a'.repeat(600) })).toBeUndefined();
    expect(verdicts.keyOf('limit=1')).toBeUndefined();
  });

  it('remembers 256 query strings a class, forgetting the oldest first', () => {
    const verdicts = new QueryVerdicts();
    for (let i = 1; i <= 257; i++) verdicts.remember(Page, `k${i}`, Object.assign(new Page(), { limit: i }));
    expect(verdicts.recall(Page, 'k1')).toBeUndefined();
    expect(verdicts.recall(Page, 'k2')).toEqual({ limit: 2 });
    expect(verdicts.recall(Page, 'k257')).toEqual({ limit: 257 });
  });

  it('remembers only a DTO of the class whose fields are all primitive', () => {
    const verdicts = new QueryVerdicts();
    verdicts.remember(Page, 'plain', { limit: 1 });
    verdicts.remember(Page, 'nested', Object.assign(new Page(), { tags: ['a'] }));
    verdicts.remember(Page, 'date', Object.assign(new Page(), { at: new Date(0) }));
    expect(verdicts.recall(Page, 'plain')).toBeUndefined();
    expect(verdicts.recall(Page, 'nested')).toBeUndefined();
    expect(verdicts.recall(Page, 'date')).toBeUndefined();
  });
});
