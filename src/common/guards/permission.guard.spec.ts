import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { contextOf } from '../context/context-of';
import type { BrandPermission } from '../context/permissions';
import type { Principal } from '../context/principal';
import { PermissionsCheckedByService } from '../decorators/require-permission.decorator';
import { AppError } from '../errors/app-error';
import { PermissionGuard } from './permission.guard';

class Routes {
  @PermissionsCheckedByService('orders.read', 'returns.read')
  read(this: void): void {}
}

const keyHolding = (...permissions: BrandPermission[]): Principal => ({
  kind: 'integration_key',
  id: 1,
  isSuperadmin: false,
  boundBrandId: 3,
  defaultBrandId: () => 3,
  permissionsIn: (brandId) => new Set(brandId === 3 ? permissions : []),
});

function outcome(principal: Principal, brandId: number | null): boolean | string {
  const request = { headers: {}, method: 'GET', url: '/events' };
  Object.assign(contextOf(request as never), { principal, brandId });
  try {
    return new PermissionGuard(new Reflector()).canActivate(
      new ExecutionContextHost([request, {}, undefined], Routes, Routes.prototype.read),
    );
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.message}` : 'thrown';
  }
}

describe('PermissionsCheckedByService', () => {
  it('lets in a caller in a brand, whatever it holds there: the route names what a request lacks', () => {
    expect(outcome(keyHolding('orders.read'), 3)).toBe(true);
    expect(outcome(keyHolding('returns.read', 'orders.write'), 3)).toBe(true);
    expect(outcome(keyHolding('orders.write'), 3)).toBe(true);
  });

  it('refuses one acting in no brand, naming the first', () => {
    expect(outcome(keyHolding('orders.read'), null)).toBe('403 Forbidden: Missing permission orders.read');
  });
});
