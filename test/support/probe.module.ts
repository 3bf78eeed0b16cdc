import { Controller, Get, Module, Post } from '@nestjs/common';
import type { RequestContext } from '../../src/common/context/request-context';
import { Ctx } from '../../src/common/decorators/ctx.decorator';
import { Public } from '../../src/common/decorators/public.decorator';
import { RequirePermission } from '../../src/common/decorators/require-permission.decorator';

const describeCtx = (ctx: RequestContext) => ({ kind: ctx.principal?.kind ?? null, brandId: ctx.brandId });

/** Routes that only exercise the global guard chain, mounted in e2e suites next to the real app. */
@Controller('probe')
class ProbeController {
  @Public()
  @Get('public')
  open(@Ctx() ctx: RequestContext) {
    return describeCtx(ctx);
  }

  @Public()
  @Get('crash')
  crash(): never {
    throw new Error('connection to db-internal.example:5432 failed for user app_secret_user');
  }

  @Get('authenticated')
  authenticated(@Ctx() ctx: RequestContext) {
    return describeCtx(ctx);
  }

  @RequirePermission('orders.read')
  @Get('orders')
  read(@Ctx() ctx: RequestContext) {
    return describeCtx(ctx);
  }

  @RequirePermission('orders.write')
  @Post('orders')
  write(@Ctx() ctx: RequestContext) {
    return describeCtx(ctx);
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
