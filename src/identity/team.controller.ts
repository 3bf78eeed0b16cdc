import { Body, Controller, Get, HttpCode } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { BrandContext } from '../common/context/request-context';
import { BrandPathParam } from '../common/decorators/brand-path-param.decorator';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission, RequireRecentAuthentication } from '../common/decorators/require-permission.decorator';
import { ErrorText } from '../common/errors/error-texts';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { InviteMemberDto } from './dto/invitation.dto';
import { InvitationListResponse, InvitationResponse, MemberListResponse } from './dto/team.responses';
import { InvitationsService } from './invitations.service';
import { MembershipsService } from './memberships.service';

/**
 * The store's team (contract §19), run by a member holding settings.manage in the brand of the
 * path, or a superadministrator: invitations and the members list. A member's permissions are
 * changed and removed with PUT …/members/:userId (AdminBrandsController).
 */
@ApiTags('team')
@BrandPathParam()
@Controller('admin/brands/:brandId')
export class TeamController {
  constructor(
    private readonly invitations: InvitationsService,
    private readonly memberships: MembershipsService,
  ) {}

  @RequirePermission('settings.manage')
  @RequireRecentAuthentication()
  @IdempotentPost('invitations')
  @ApiCreatedResponse({
    type: InvitationResponse,
    description: 'Mails the link to the address; a pending invitation of the same address is replaced (its link dies)',
  })
  @ApiConflictResponse({ description: ErrorText.alreadyMember })
  @ApiOperation({ summary: 'Invite a person to the brand by e-mail', operationId: 'invite' })
  invite(@BrandCtx() ctx: BrandContext, @Body() body: InviteMemberDto): Promise<InvitationResponse> {
    return this.invitations.invite(ctx, body);
  }

  @RequirePermission('settings.manage')
  @Get('invitations')
  @ApiOkResponse({ type: InvitationListResponse })
  @ApiOperation({ summary: "The brand's open invitations", operationId: 'listInvitations' })
  async listInvitations(@BrandCtx() ctx: BrandContext): Promise<InvitationListResponse> {
    return { items: await this.invitations.listPending(ctx) };
  }

  @RequirePermission('settings.manage')
  @IdempotentPost('invitations/:invitationId/revoke')
  @HttpCode(200)
  @ApiOkResponse({
    type: InvitationResponse,
    description: 'status "revoked": the link dies at once. Revoking a revoked invitation answers it again',
  })
  @ApiNotFoundResponse({ description: ErrorText.notFound })
  @ApiConflictResponse({ description: ErrorText.invitationNotRevocable('accepted | replaced') })
  @ApiOperation({ summary: 'Revoke an invitation', operationId: 'revokeInvitation' })
  revoke(@BrandCtx() ctx: BrandContext, @IdParam('invitationId') invitationId: number): Promise<InvitationResponse> {
    return this.invitations.revoke(ctx, invitationId);
  }

  @RequirePermission('settings.manage')
  @Get('members')
  @ApiOkResponse({ type: MemberListResponse })
  @ApiOperation({ summary: "The brand's members, their second factor and last sign-in", operationId: 'listMembers' })
  async members(@BrandCtx() ctx: BrandContext): Promise<MemberListResponse> {
    return { items: await this.memberships.members(ctx.brandId) };
  }
}
