import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission, RequireRecentAuthentication } from '../common/decorators/require-permission.decorator';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityPolicyService } from './security-policy.service';
import { SecurityPolicyDto } from './dto/second-factor.dto';
import { SecurityPolicyResponse } from './dto/second-factor.responses';

/** The brand's security policy (contract §19): whether its members' sessions need a second factor. */
@ApiTags('team')
@BrandPathParam()
@Controller('admin/brands/:brandId/security-policy')
export class SecurityPolicyController {
  constructor(private readonly policy: SecurityPolicyService) {}

  @RequirePermission('settings.manage')
  @Get()
  @ApiOkResponse({ type: SecurityPolicyResponse })
  @ApiOperation({ summary: "The brand's security policy", operationId: 'getSecurityPolicy' })
  read(@BrandCtx() ctx: BrandContext): Promise<SecurityPolicyResponse> {
    return this.policy.of(ctx.brandId);
  }

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @Put()
  @ApiOkResponse({ type: SecurityPolicyResponse })
  @ApiConflictResponse({ description: ErrorText.setUpSecondFactorFirst })
  @ApiOperation({ summary: "Change the brand's security policy", operationId: 'setSecurityPolicy' })
  change(@BrandCtx() ctx: BrandContext, @Body() body: SecurityPolicyDto): Promise<SecurityPolicyResponse> {
    return this.policy.set(ctx, body.requireSecondFactor);
  }
}
