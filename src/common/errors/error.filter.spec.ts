import type { ArgumentsHost } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { QueryFailedError } from 'typeorm';
import { AppError } from './app-error';
import { ErrorFilter } from './error.filter';

/** What the filter wrote through the adapter, for one exception. */
function answerTo(exception: unknown) {
  const written: { status?: number; body?: Record<string, unknown>; headers: Record<string, string> } = { headers: {} };
  const adapter = {
    isHeadersSent: () => false,
    setHeader: (_response: unknown, name: string, value: string) => (written.headers[name] = value),
    reply: (_response: unknown, body: Record<string, unknown>, status: number) =>
      Object.assign(written, { body, status }),
  } as unknown as AbstractHttpAdapter;
  const request = { id: 'req-1', headers: {}, method: 'POST', url: '/x' };
  const host = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}) }),
  } as unknown as ArgumentsHost;
  new ErrorFilter(adapter).catch(exception, host);
  return written;
}

const pgError = (code: string) => Object.assign(new Error('pg'), { code });

describe('ErrorFilter', () => {
  it('writes an AppError with its status, text, details, headers and the request id', () => {
    expect(answerTo(AppError.tooManyRequests('Too many requests', 3))).toEqual({
      status: 429,
      body: { error: 'Too many requests', requestId: 'req-1' },
      headers: { 'Retry-After': '3' },
    });
  });

  it('answers a value beyond its column (PostgreSQL 22003) with 422, from the driver or from TypeORM', () => {
    for (const exception of [pgError('22003'), new QueryFailedError('UPDATE …', [], pgError('22003'))]) {
      expect(answerTo(exception)).toMatchObject({ status: 422, body: { error: expect.stringMatching(/range/) } });
    }
  });

  it('answers an unreachable database with 503 and Retry-After, anything else with a bare 500', () => {
    expect(answerTo(pgError('ECONNREFUSED'))).toMatchObject({ status: 503, headers: { 'Retry-After': '5' } });
    expect(answerTo(new Error('secret detail'))).toEqual({
      status: 500,
      body: { error: 'Internal server error', requestId: 'req-1' },
      headers: {},
    });
  });
});
