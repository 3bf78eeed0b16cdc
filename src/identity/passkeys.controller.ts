import { Body, Controller, Delete, Get, HttpCode } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import {
  AccountRoutes,
  RequireRecentAuthentication,
  RequireSession,
} from '../common/decorators/require-permission.decorator';
import { ErrorText } from '../common/errors/error-texts';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { AddPasskeyDto } from './dto/second-factor.dto';
import { PasskeyEntry, PasskeyListResponse } from './dto/second-factor.responses';
import { CreationOptionsResponse } from './dto/webauthn.responses';
import { PasskeysService, type PasskeyView } from './passkeys.service';

/** The signed-in account's passkeys (contract §19). */
@ApiTags('auth')
@AccountRoutes()
@Controller('auth/passkeys')
export class PasskeysController {
  constructor(private readonly passkeys: PasskeysService) {}

  @RequireSession()
  @RequireRecentAuthentication()
  @IdempotentPost('options')
  @HttpCode(200)
  @ApiOkResponse({ type: CreationOptionsResponse, description: 'WebAuthn creation options (JSON form)' })
  @ApiOperation({ summary: 'A challenge to register a passkey', operationId: 'getPasskeyRegistrationOptions' })
  options(@Ctx() ctx: RequestContext): Promise<object> {
    return this.passkeys.registrationOptions(ctx);
  }

  @RequireSession()
  @RequireRecentAuthentication()
  @IdempotentPost()
  @ApiCreatedResponse({ type: PasskeyEntry })
  @ApiBadRequestResponse({ description: `${ErrorText.passkeyNotVerified} | ${ErrorText.noPasskeyCeremony}` })
  @ApiConflictResponse({ description: ErrorText.passkeyRegistered })
  @ApiOperation({ summary: 'Register a passkey', operationId: 'addPasskey' })
  add(@Ctx() ctx: RequestContext, @Body() body: AddPasskeyDto): Promise<PasskeyView> {
    return this.passkeys.register(ctx, body.name.trim(), body.credential);
  }

  @RequireSession()
  @Get()
  @ApiOkResponse({ type: PasskeyListResponse })
  @ApiOperation({ summary: "The account's passkeys", operationId: 'listPasskeys' })
  async list(@Ctx() ctx: RequestContext): Promise<{ items: PasskeyView[] }> {
    return { items: await this.passkeys.list(ctx) };
  }

  @RequireSession()
  @RequireRecentAuthentication()
  @Delete(':passkeyId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiNotFoundResponse({ description: ErrorText.notFound })
  @ApiOperation({ summary: 'Remove a passkey', operationId: 'removePasskey' })
  async remove(@Ctx() ctx: RequestContext, @IdParam('passkeyId') passkeyId: number): Promise<void> {
    await this.passkeys.remove(ctx, passkeyId);
  }
}
