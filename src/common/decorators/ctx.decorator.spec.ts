import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { contextOf } from '../context/context-of';
import { BrandCtx } from './ctx.decorator';

/** The function behind a parameter decorator, as Nest calls it for each request. */
function factoryOf(decorator: () => ParameterDecorator): (data: unknown, execution: ExecutionContext) => unknown {
  class Probe {
    handler(@decorator() _value: unknown) {}
  }
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handler') as Record<string, { factory: never }>;
  return Object.values(args)[0].factory;
}

// A real one, as Nest makes for each request: arguments (request, reply, next).
const executionFor = (request: object) => new ExecutionContextHost([request, {}, undefined]) as ExecutionContext;

describe('BrandCtx', () => {
  const factory = factoryOf(BrandCtx);
  const request = () => ({ headers: {}, method: 'GET', url: '/x', ip: '127.0.0.1', id: 'r1' });

  it('gives the settled brand', () => {
    const req = request();
    contextOf(req).brandId = 7;
    expect(factory(undefined, executionFor(req))).toMatchObject({ brandId: 7 });
  });

  it('refuses a route whose brand was never settled, as the brand guard would', () => {
    expect(() => factory(undefined, executionFor(request()))).toThrow(
      expect.objectContaining({ status: 403, message: 'Forbidden: no brand access configured' }),
    );
  });
});
