import { Body, Controller, Param, Post, type ExecutionContext } from '@nestjs/common';
import { TolerantBody } from './tolerant-body.decorator';
import { UnreadBodyGuard } from './unread-body.guard';

class Dto {}

@Controller()
class Routes {
  @Post('a') withBody(@Body() _body: Dto): void {}
  @Post('b') tolerant(@TolerantBody() _body: Dto): void {}
  @Post('c') without(@Param('id') _id: string): void {}
}

const execution = (handler: keyof Routes, body: unknown) =>
  ({
    getClass: () => Routes,
    getHandler: () => Object.getOwnPropertyDescriptor(Routes.prototype, handler)!.value as object,
    switchToHttp: () => ({ getRequest: () => ({ body }) }),
  }) as unknown as ExecutionContext;

describe('UnreadBodyGuard', () => {
  const guard = new UnreadBodyGuard();

  it('lets a route that reads its body have any, leaving it to the validation pipe', () => {
    expect(guard.canActivate(execution('withBody', null))).toBe(true);
    expect(guard.canActivate(execution('tolerant', { x: 1 }))).toBe(true);
  });

  it('lets a route that takes no body have none, or an empty object', () => {
    expect(guard.canActivate(execution('without', undefined))).toBe(true);
    expect(guard.canActivate(execution('without', {}))).toBe(true);
  });

  it('refuses anything else on such a route, naming each property', () => {
    expect(() => guard.canActivate(execution('without', { a: 1, b: null }))).toThrow(
      expect.objectContaining({ status: 400, details: ['property a should not exist', 'property b should not exist'] }),
    );
    for (const body of [null, [], 'x', 0, false])
      expect(() => guard.canActivate(execution('without', body))).toThrow(
        expect.objectContaining({ details: ['Request body must be a JSON object'] }),
      );
  });
});
