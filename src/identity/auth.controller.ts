import { Body, Controller, Get, HttpCode, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import {
  ApiNoContentResponse,
  ApiOkResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { HttpReply, HttpRequest } from '../common/context/http-types';
import type { Environment } from '../config/environment';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { Public } from '../common/decorators/public.decorator';
import { RequireSession } from '../common/decorators/require-permission.decorator';
import { AuthService } from './auth.service';
import { clientOf } from './session-client';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { LoginResponse, MeResponse } from './dto/identity.responses';
import { LoginDto } from './dto/login.dto';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly auth: AuthService,
    config: ConfigService<Environment, true>,
  ) {
    this.secureCookie = config.get('SESSION_COOKIE_SECURE', { infer: true });
  }

  @Public()
  @IdempotentPost('login')
  @HttpCode(200)
  @ApiOkResponse({ type: LoginResponse, description: 'Also sets the `session` cookie' })
  @ApiUnauthorizedResponse({ description: 'Unauthorized' })
  @ApiTooManyRequestsResponse({ description: 'Too many login attempts (with Retry-After)' })
  async login(
    @Ctx() ctx: RequestContext,
    @Body() body: LoginDto,
    @Req() request: HttpRequest,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<LoginResponse> {
    const { session, user } = await this.auth.login(ctx, body.email, body.password, clientOf(ctx, request));
    setSessionCookie(response, session, this.secureCookie);
    return { token: session.token, csrfToken: session.csrfToken, user };
  }

  @RequireSession()
  @IdempotentPost('logout')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The session ended; the cookie is cleared' })
  async logout(@Ctx() ctx: RequestContext, @Res({ passthrough: true }) response: HttpReply): Promise<void> {
    await this.auth.logout(ctx);
    clearSessionCookie(response);
  }

  @RequireSession()
  @Get('me')
  @ApiOkResponse({ type: MeResponse })
  me(@Ctx() ctx: RequestContext): MeResponse {
    return this.auth.me(ctx);
  }
}
