import { Body, Controller, Get, HttpCode, Param, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiExtraModels,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { HttpReply, HttpRequest } from '../common/context/http-types';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { Public } from '../common/decorators/public.decorator';
import { AccountRoutes } from '../common/decorators/require-permission.decorator';
import { ErrorText } from '../common/errors/error-texts';
import type { Environment } from '../config/environment';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { AcceptInvitationDto } from './dto/invitation.dto';
import { LoginResponse } from './dto/identity.responses';
import { InvitationInfoResponse, InvitationMembershipResponse } from './dto/team.responses';
import { InvitationsService } from './invitations.service';
import { clientOf } from './session-client';
import { setSessionCookie } from './session-cookie';

const TOKEN_PARAM = ApiParam({
  name: 'token',
  description: "The token of the invitation's link (`csh_inv_…`), as the mail gave it",
});

/**
 * The invitation's own page (contract §19): public, the token being the credential. Accepting
 * for an existing account reads the request's session itself (InvitationsService.accept).
 */
@ApiTags('team')
@AccountRoutes()
@Controller('auth/invitations')
export class InvitationAcceptanceController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly invitations: InvitationsService,
    config: ConfigService<Environment, true>,
  ) {
    this.secureCookie = config.get('SESSION_COOKIE_SECURE', { infer: true });
  }

  @Public()
  @Get(':token')
  @TOKEN_PARAM
  @ApiOkResponse({ type: InvitationInfoResponse })
  @ApiNotFoundResponse({ description: ErrorText.invalidInvitation })
  @ApiOperation({ summary: "What an invitation's link offers", operationId: 'getInvitation' })
  info(@Param('token') token: string): Promise<InvitationInfoResponse> {
    return this.invitations.info(token);
  }

  @Public()
  @IdempotentPost(':token/accept')
  @HttpCode(200)
  @TOKEN_PARAM
  @ApiExtraModels(LoginResponse, InvitationMembershipResponse)
  @ApiOkResponse({
    description:
      'No account has the invited e-mail: `{password}` creates it, joined and signed in, answered as POST /auth/login ' +
      '(and the `session` cookie). An account has it: the request is signed in as that account (a cookie session ' +
      'sends X-CSRF-Token), and its membership is set',
    schema: { oneOf: [{ $ref: getSchemaPath(LoginResponse) }, { $ref: getSchemaPath(InvitationMembershipResponse) }] },
  })
  @ApiUnauthorizedResponse({ description: `${ErrorText.unauthorized} (an account has the e-mail; no session)` })
  @ApiForbiddenResponse({ description: `${ErrorText.invitationForAnotherAccount} | ${ErrorText.invalidCsrfToken}` })
  @ApiNotFoundResponse({ description: ErrorText.invalidInvitation })
  @ApiOperation({
    summary: 'Accept an invitation (a new account, or the signed-in one)',
    operationId: 'acceptInvitation',
  })
  async accept(
    @Ctx() ctx: RequestContext,
    @Param('token') token: string,
    @Body() body: AcceptInvitationDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<LoginResponse | InvitationMembershipResponse> {
    const accepted = await this.invitations.accept(ctx, token, body.password, request, clientOf(ctx, request));
    if (accepted.kind === 'joined') return accepted.membership;
    const { session, user } = accepted.login;
    setSessionCookie(response, session, this.secureCookie);
    return { token: session.token, csrfToken: session.csrfToken, user };
  }
}
