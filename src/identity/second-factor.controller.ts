import { Body, Controller, Delete, HttpCode } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
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
import { AuthenticatorAppService } from './authenticator-app.service';
import { TotpConfirmDto } from './dto/second-factor.dto';
import { RecoveryCodesResponse, TotpEnrolmentResponse } from './dto/second-factor.responses';

/** The signed-in account's authenticator app and recovery codes (contract §19). */
@ApiTags('auth')
@AccountRoutes()
@Controller('auth/second-factor')
export class SecondFactorController {
  constructor(private readonly app: AuthenticatorAppService) {}

  @RequireSession()
  @RequireRecentAuthentication()
  @IdempotentPost('totp')
  @HttpCode(200)
  @ApiOkResponse({ type: TotpEnrolmentResponse, description: 'Not active until confirmed; asked again, a new secret' })
  @ApiConflictResponse({ description: ErrorText.authenticatorAppExists })
  @ApiOperation({ summary: 'Start enrolling an authenticator app', operationId: 'enrolAuthenticator' })
  enrol(@Ctx() ctx: RequestContext): Promise<TotpEnrolmentResponse> {
    return this.app.enrol(ctx);
  }

  @RequireSession()
  @RequireRecentAuthentication()
  @IdempotentPost('totp/confirm')
  @HttpCode(200)
  @ApiOkResponse({ type: RecoveryCodesResponse, description: 'Active now; the recovery codes are shown this once' })
  @ApiBadRequestResponse({ description: ErrorText.invalidCode })
  @ApiConflictResponse({ description: ErrorText.noAuthenticatorAppPending })
  @ApiOperation({
    summary: 'Confirm the authenticator app with a code; get recovery codes',
    operationId: 'confirmAuthenticator',
  })
  confirm(@Ctx() ctx: RequestContext, @Body() body: TotpConfirmDto): Promise<RecoveryCodesResponse> {
    return this.app.confirm(ctx, body.code);
  }

  @RequireSession()
  @RequireRecentAuthentication()
  @Delete('totp')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Removed (the recovery codes too, unless a passkey is left)' })
  @ApiNotFoundResponse({ description: ErrorText.notFound })
  @ApiOperation({ summary: 'Remove the authenticator app', operationId: 'removeAuthenticator' })
  async remove(@Ctx() ctx: RequestContext): Promise<void> {
    await this.app.remove(ctx);
  }

  @RequireSession()
  @RequireRecentAuthentication()
  @IdempotentPost('recovery-codes')
  @HttpCode(200)
  @ApiOkResponse({ type: RecoveryCodesResponse, description: 'A new set; the old one dies' })
  @ApiConflictResponse({ description: ErrorText.setUpSecondFactorFirst })
  @ApiOperation({ summary: 'Replace the recovery codes', operationId: 'regenerateRecoveryCodes' })
  regenerate(@Ctx() ctx: RequestContext): Promise<RecoveryCodesResponse> {
    return this.app.regenerateRecoveryCodes(ctx);
  }
}
