import { Body, Controller, Get, HttpCode, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import type { HttpReply, HttpRequest } from '../common/context/http-types';
import type { Environment } from '../config/environment';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { Public } from '../common/decorators/public.decorator';
import { AccountRoutes, RequireSession } from '../common/decorators/require-permission.decorator';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { LoginChallengesService } from './login-challenges.service';
import { answerOf } from './second-factor-answer';
import { LoginChallengeDto, LoginSecondFactorDto } from './dto/second-factor.dto';
import { SecondStepResponse } from './dto/second-factor.responses';
import { RequestOptionsResponse } from './dto/webauthn.responses';
import { AuthService, type LoginResult } from './auth.service';
import { clientOf } from './session-client';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { LoginResponse, MeResponse } from './dto/identity.responses';
import { LoginDto } from './dto/login.dto';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('auth')
@AccountRoutes()
@Controller('auth')
export class AuthController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly auth: AuthService,
    private readonly challenges: LoginChallengesService,
    config: ConfigService<Environment, true>,
  ) {
    this.secureCookie = config.get('SESSION_COOKIE_SECURE', { infer: true });
  }

  @Public()
  @IdempotentPost('login')
  @HttpCode(200)
  @ApiExtraModels(LoginResponse, SecondStepResponse)
  @ApiOkResponse({
    description:
      'Signed in (and the `session` cookie set); or, for an account with a second factor, the challenge of ' +
      'the second step: no session, no cookie',
    schema: { oneOf: [{ $ref: getSchemaPath(LoginResponse) }, { $ref: getSchemaPath(SecondStepResponse) }] },
  })
  @ApiUnauthorizedResponse({ description: 'Unauthorized' })
  @ApiTooManyRequestsResponse({ description: 'Too many login attempts (with Retry-After)' })
  @ApiOperation({
    summary: 'Sign in with e-mail and password (a second-factor challenge when the account has one)',
    operationId: 'logIn',
  })
  async login(
    @Ctx() ctx: RequestContext,
    @Body() body: LoginDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<LoginResponse | SecondStepResponse> {
    const result = await this.auth.login(ctx, body.email, body.password, clientOf(ctx, request));
    if ('secondFactorRequired' in result) return result;
    return this.signedIn(result, response);
  }

  @Public()
  @IdempotentPost('login/passkey-options')
  @HttpCode(200)
  @ApiOkResponse({ type: RequestOptionsResponse, description: "WebAuthn request options for the account's passkeys" })
  @ApiUnauthorizedResponse({ description: `${ErrorText.unauthorized} (the challenge is dead)` })
  @ApiOperation({ summary: "A passkey challenge for a sign-in's second step", operationId: 'getLoginPasskeyOptions' })
  passkeyOptions(@Body() body: LoginChallengeDto): Promise<object> {
    return this.challenges.passkeyOptions(body.challengeToken);
  }

  @Public()
  @IdempotentPost('login/second-factor')
  @HttpCode(200)
  @ApiOkResponse({ type: LoginResponse, description: 'Signed in; also sets the `session` cookie' })
  @ApiUnauthorizedResponse({
    description: `${ErrorText.invalidCode} | ${ErrorText.unauthorized} (the challenge is dead)`,
  })
  @ApiTooManyRequestsResponse({ description: 'Too many login attempts (with Retry-After)' })
  @ApiOperation({ summary: "Answer a sign-in's second-factor challenge", operationId: 'completeLogin' })
  async secondFactor(
    @Ctx() ctx: RequestContext,
    @Body() body: LoginSecondFactorDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<LoginResponse> {
    const answer = answerOf(body);
    if (!answer) throw AppError.badRequest([ErrorText.oneSecondFactorAnswer]);
    const result = await this.auth.completeSecondStep(ctx, body.challengeToken, answer, clientOf(ctx, request));
    return this.signedIn(result, response);
  }

  @RequireSession()
  @IdempotentPost('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The session ended; the cookie is cleared' })
  @ApiOperation({ summary: 'End this session', operationId: 'logOut' })
  async logout(@Ctx() ctx: RequestContext, @Res({ passthrough: true }) response: HttpReply): Promise<void> {
    await this.auth.logout(ctx);
    clearSessionCookie(response);
  }

  private signedIn({ session, user }: LoginResult, response: HttpReply): LoginResponse {
    setSessionCookie(response, session, this.secureCookie);
    return { token: session.token, csrfToken: session.csrfToken, user };
  }

  @RequireSession()
  @Get('me')
  @ApiOkResponse({ type: MeResponse })
  @ApiOperation({ summary: 'The signed-in account, its memberships and second factor', operationId: 'getMe' })
  me(@Ctx() ctx: RequestContext): Promise<MeResponse> {
    return this.auth.me(ctx);
  }
}
