import { Body, Controller, Delete, Get, HttpCode, Param, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { RequestContext } from '../common/context/request-context';
import { Ctx } from '../common/decorators/ctx.decorator';
import { Public } from '../common/decorators/public.decorator';
import { AccountRoutes, RequireSession } from '../common/decorators/require-permission.decorator';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';
import { JournalQueryDto } from '../security-journal/dto/journal-query.dto';
import { JournalListResponse } from '../security-journal/dto/journal.responses';
import { AccountService } from './account.service';
import { ChangePasswordDto, PasswordResetDto, PasswordResetRequestDto, StepUpDto } from './dto/account.dto';
import { EmptyResponse, SessionListResponse } from './dto/identity.responses';
import { PasswordsService } from './passwords.service';
import { PasskeysService } from './passkeys.service';
import { answerOf } from './second-factor-answer';
import { RequestOptionsResponse } from './dto/webauthn.responses';

/** The signed-in account's own security (contract §19): password, sessions, step-up, activity. */
@ApiTags('auth')
@AccountRoutes()
@Controller('auth')
export class AccountController {
  constructor(
    private readonly account: AccountService,
    private readonly passwords: PasswordsService,
    private readonly passkeys: PasskeysService,
  ) {}

  @RequireSession()
  @IdempotentPost('password')
  @HttpCode(204)
  @ApiNoContentResponse({ description: "Changed; the account's other sessions ended" })
  @ApiOperation({ summary: "Change this account's password (other sessions end)", operationId: 'changePassword' })
  async changePassword(@Ctx() ctx: RequestContext, @Body() body: ChangePasswordDto): Promise<void> {
    await this.passwords.change(ctx, body.currentPassword, body.newPassword);
  }

  @Public()
  @IdempotentPost('password-reset')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: EmptyResponse, description: 'The same answer for every e-mail' })
  @ApiOperation({
    summary: 'Mail a password-reset link, if the e-mail has an account',
    operationId: 'requestPasswordReset',
  })
  async requestReset(@Ctx() ctx: RequestContext, @Body() body: PasswordResetRequestDto): Promise<EmptyResponse> {
    await this.passwords.requestReset(ctx, body.email);
    return {};
  }

  @Public()
  @IdempotentPost('password-reset/:token')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Set; every session of the account ended' })
  @ApiNotFoundResponse({ description: ErrorText.invalidOrExpiredToken })
  @ApiOperation({ summary: "Set a new password with a reset link's token", operationId: 'resetPassword' })
  async reset(
    @Ctx() ctx: RequestContext,
    @Param('token') token: string,
    @Body() body: PasswordResetDto,
  ): Promise<void> {
    await this.passwords.completeReset(ctx, token, body.newPassword);
  }

  @RequireSession()
  @IdempotentPost('step-up')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The session proved its account now (recent authentication)' })
  @ApiBadRequestResponse({
    description: `${ErrorText.oneStepUpAnswer} | ${ErrorText.stepUpWithSecondFactor} | ${ErrorText.stepUpWithPassword}`,
  })
  @ApiForbiddenResponse({ description: ErrorText.wrongPassword })
  @ApiUnauthorizedResponse({ description: ErrorText.invalidCode })
  @ApiOperation({ summary: 'Prove the account again before a sensitive action', operationId: 'stepUp' })
  async stepUp(@Ctx() ctx: RequestContext, @Body() body: StepUpDto): Promise<void> {
    const { password, ...rest } = body;
    const answer = answerOf(rest);
    if ((password === undefined) === (answer === null)) throw AppError.badRequest([ErrorText.oneStepUpAnswer]);
    await this.account.stepUp(ctx, password !== undefined ? { password } : answer!);
  }

  @RequireSession()
  @IdempotentPost('step-up/passkey-options')
  @HttpCode(200)
  @ApiOkResponse({ type: RequestOptionsResponse, description: "WebAuthn request options for the account's passkeys" })
  @ApiBadRequestResponse({ description: ErrorText.noPasskey })
  @ApiOperation({ summary: 'A passkey challenge for a step-up', operationId: 'getStepUpPasskeyOptions' })
  stepUpPasskeyOptions(@Ctx() ctx: RequestContext): Promise<object> {
    return this.passkeys.stepUpOptions(ctx);
  }

  @RequireSession()
  @Get('sessions')
  @ApiOkResponse({ type: SessionListResponse })
  @ApiOperation({ summary: "The account's live sessions", operationId: 'listSessions' })
  async sessions(@Ctx() ctx: RequestContext): Promise<SessionListResponse> {
    return { items: await this.account.sessions(ctx) };
  }

  @RequireSession()
  @IdempotentPost('sessions/end-others')
  @HttpCode(204)
  @ApiNoContentResponse({ description: "The account's other sessions ended" })
  @ApiOperation({ summary: 'End every session of the account but this one', operationId: 'endOtherSessions' })
  async endOthers(@Ctx() ctx: RequestContext): Promise<void> {
    await this.account.endOtherSessions(ctx);
  }

  @RequireSession()
  @Delete('sessions/:sessionId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The session ended' })
  @ApiNotFoundResponse({ description: ErrorText.notFound })
  @ApiOperation({ summary: 'End one session of the account', operationId: 'endSession' })
  async endSession(@Ctx() ctx: RequestContext, @Param('sessionId') sessionId: string): Promise<void> {
    await this.account.endSession(ctx, sessionId);
  }

  @RequireSession()
  @Get('activity')
  @ApiOkResponse({ type: JournalListResponse, description: "The account's own journal entries, as §8 pages them" })
  @ApiOperation({ summary: "The account's journal entries", operationId: 'listAccountActivity' })
  async activity(@Ctx() ctx: RequestContext, @Query() query: JournalQueryDto): Promise<JournalListResponse> {
    return { items: await this.account.activity(ctx, query) };
  }
}
