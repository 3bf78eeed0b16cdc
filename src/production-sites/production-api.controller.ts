import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { ProductionApi } from '../common/decorators/production-api.decorator';
import { SiteKeyPrincipal } from './site-key.principal';

@ApiTags('production API')
@ProductionApi()
@Controller('production-api')
export class ProductionApiController {
  /** Lets a site check its key: which site and which brand it works for. */
  @Get('me')
  me(@Ctx() ctx: RequestContext) {
    const { site, brand } = (ctx.principal as SiteKeyPrincipal).identity;
    return { site, brand };
  }
}
