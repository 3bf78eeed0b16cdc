import { Body, Controller, Get, Put } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { BrandsService } from './brands.service';
import { CreateBrandDto } from './dto/create-brand.dto';
import { PutMembershipDto } from './dto/put-membership.dto';
import { MembershipsService } from './memberships.service';
import { BrandListResponse, BrandResponse, MembershipResponse } from './dto/identity.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { ErrorText } from '../common/errors/error-texts';

@ApiTags('platform administration')
@Controller('admin/brands')
export class AdminBrandsController {
  constructor(
    private readonly brands: BrandsService,
    private readonly memberships: MembershipsService,
  ) {}

  @RequirePermission(PLATFORM_ADMIN)
  @IdempotentPost()
  @ApiConflictResponse({ description: 'A brand with this slug already exists' })
  @ApiCreatedResponse({ type: BrandResponse })
  @ApiOperation({ summary: 'Create a brand (superadministrator)', operationId: 'createBrand' })
  create(@Body() body: CreateBrandDto): Promise<BrandResponse> {
    return this.brands.create(body);
  }

  @RequirePermission(PLATFORM_ADMIN)
  @Get()
  @ApiOkResponse({ type: BrandListResponse })
  @ApiOperation({ summary: 'The brands the caller may act in', operationId: 'listBrands' })
  async list(): Promise<BrandListResponse> {
    return { items: await this.brands.list() };
  }

  /**
   * A superadministrator, or a member of the brand holding settings.manage (the path decides the
   * brand). The brand's list of members is the team's (TeamController).
   */
  @RequirePermission('settings.manage')
  @Put(':brandId/members/:userId')
  @ApiTags('team')
  @ApiOkResponse({ type: MembershipResponse })
  @ApiConflictResponse({ description: ErrorText.lastSettingsManager })
  @ApiOperation({ summary: "Set a member's permissions in the brand", operationId: 'setMember' })
  putMember(
    @Ctx() ctx: RequestContext,
    @IdParam('brandId') brandId: number,
    @IdParam('userId') userId: number,
    @Body() body: PutMembershipDto,
  ): Promise<MembershipResponse> {
    return this.memberships.put(ctx, brandId, userId, body.permissions);
  }
}
