import { SiteKeyCache } from './site-key-cache';

describe('SiteKeyCache', () => {
  afterEach(() => jest.useRealTimers());

  it('answers until its time is up, then forgets', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = new SiteKeyCache<string>(10_000);
    cache.set('a', 'site');
    cache.set('b', null);
    expect(cache.get('a')).toEqual({ value: 'site' });
    expect(cache.get('b')).toEqual({ value: null });
    jest.setSystemTime(1_000_000 + 10_000);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
  });

  it('caches nothing with a zero time', () => {
    const cache = new SiteKeyCache<string>(0);
    cache.set('a', 'site');
    expect(cache.get('a')).toBeUndefined();
  });

  it('stays bounded, dropping the oldest entries', () => {
    const cache = new SiteKeyCache<number>(60_000);
    for (let i = 0; i < 10_001; i++) cache.set(String(i), i);
    expect(cache.get('0')).toBeUndefined();
    expect(cache.get('10000')).toEqual({ value: 10_000 });
  });
});
