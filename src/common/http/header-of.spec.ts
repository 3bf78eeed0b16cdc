import type { HttpRequest } from '../context/http-types';
import { isRepeated } from './header-of';

const express = (rawHeaders: string[]) => ({ headers: {}, method: 'GET', url: '/', rawHeaders }) as HttpRequest;
const fastify = (rawHeaders: string[]) =>
  ({ headers: {}, method: 'GET', url: '/', raw: { rawHeaders } }) as HttpRequest;

describe('isRepeated', () => {
  it.each([express, fastify])('reads the raw header lines of either platform', (make) => {
    expect(isRepeated(make(['Host', 'x', 'Authorization', 'Bearer a']), 'authorization')).toBe(false);
    expect(
      isRepeated(make(['Authorization', 'Bearer a', 'Host', 'x', 'AUTHORIZATION', 'Bearer a']), 'authorization'),
    ).toBe(true);
    // Same length, another name: not counted.
    expect(isRepeated(make(['Authorization', 'a', 'Cache-Control', 'no-cache']), 'authorization')).toBe(false);
    expect(isRepeated(make([]), 'authorization')).toBe(false);
  });
});
