import { AsyncLocalStorage } from 'node:async_hooks';
import { detached } from './detached';

describe('detached', () => {
  it('runs work, and what it sets off for later, outside the caller’s async context', async () => {
    const request = new AsyncLocalStorage<string>();
    const seen = await request.run('request 1', async () => {
      expect(request.getStore()).toBe('request 1');
      const now = detached(() => request.getStore());
      const later = await new Promise<string | undefined>((resolve) =>
        detached(() => setTimeout(() => resolve(request.getStore()), 1)),
      );
      return { now, later, after: request.getStore() };
    });
    expect(seen).toEqual({ now: undefined, later: undefined, after: 'request 1' });
  });

  it('returns what the work returns', () => {
    expect(detached(() => 42)).toBe(42);
  });
});
