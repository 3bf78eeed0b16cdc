import { Body, Controller, Get, HttpCode, Query, Res } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { HttpReply } from '../common/context/http-types';
import type { BrandContext } from '../common/context/request-context';
import { BrandCtx } from '../common/decorators/ctx.decorator';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { CreateReturnDto } from './dto/create-return.dto';
import { ListReturnsQueryDto } from './dto/list-returns-query.dto';
import { DeclineReturnDto, ReceiveReturnDto, RefundReturnDto } from './dto/return-actions.dto';
import { CreatedReturnResponse, ReturnListResponse, ReturnResponse } from './dto/return.responses';
import { ReturnsService } from './returns.service';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

const MOVE_CONFLICT = 'The return cannot make this move from its status; nothing changes';

/** Returns (contract §9). */
@ApiTags('returns')
@Controller('returns')
export class ReturnsController {
  constructor(private readonly returns: ReturnsService) {}

  @RequirePermission('returns.write')
  @IdempotentPost()
  @ApiCreatedResponse({ type: CreatedReturnResponse, description: 'Created, status requested (duplicate: false)' })
  @ApiOkResponse({ type: CreatedReturnResponse, description: 'The brand already had this externalReturnId' })
  @ApiUnprocessableEntityResponse({ description: 'A line not of the order, an order not returnable, too many units' })
  @ApiOperation({ summary: 'Open a return of an order', operationId: 'createReturn' })
  async create(
    @BrandCtx() ctx: BrandContext,
    @Body() body: CreateReturnDto,
    @Res({ passthrough: true }) response: HttpReply,
  ): Promise<CreatedReturnResponse> {
    const outcome = await this.returns.create(ctx, body);
    response.status(outcome.status);
    return outcome.body;
  }

  @RequirePermission('returns.read')
  @Get()
  @ApiOkResponse({ type: ReturnListResponse })
  @ApiOperation({ summary: "The brand's returns", operationId: 'listReturns' })
  list(@BrandCtx() ctx: BrandContext, @Query() query: ListReturnsQueryDto): Promise<ReturnListResponse> {
    return this.returns.list(ctx, query);
  }

  @RequirePermission('returns.read')
  @Get(':returnId')
  @ApiOkResponse({ type: ReturnResponse })
  @ApiOperation({ summary: 'One return', operationId: 'getReturn' })
  get(@BrandCtx() ctx: BrandContext, @IdParam('returnId') returnId: number): Promise<ReturnResponse> {
    return this.returns.get(ctx, returnId);
  }

  @RequirePermission('returns.write')
  @IdempotentPost(':returnId/approve')
  @HttpCode(200)
  @ApiOkResponse({ type: ReturnResponse })
  @ApiConflictResponse({ description: MOVE_CONFLICT })
  @ApiOperation({ summary: 'Approve a return', operationId: 'approveReturn' })
  approve(@BrandCtx() ctx: BrandContext, @IdParam('returnId') returnId: number): Promise<ReturnResponse> {
    return this.returns.approve(ctx, returnId);
  }

  @RequirePermission('returns.write')
  @IdempotentPost(':returnId/decline')
  @HttpCode(200)
  @ApiOkResponse({ type: ReturnResponse })
  @ApiConflictResponse({ description: MOVE_CONFLICT })
  @ApiOperation({ summary: 'Decline a return', operationId: 'declineReturn' })
  decline(
    @BrandCtx() ctx: BrandContext,
    @IdParam('returnId') returnId: number,
    @Body() body: DeclineReturnDto,
  ): Promise<ReturnResponse> {
    return this.returns.decline(ctx, returnId, body.reasonNote);
  }

  @RequirePermission('returns.write')
  @IdempotentPost(':returnId/cancel')
  @HttpCode(200)
  @ApiOkResponse({ type: ReturnResponse })
  @ApiConflictResponse({ description: MOVE_CONFLICT })
  @ApiOperation({ summary: 'Cancel a return', operationId: 'cancelReturn' })
  cancel(@BrandCtx() ctx: BrandContext, @IdParam('returnId') returnId: number): Promise<ReturnResponse> {
    return this.returns.cancel(ctx, returnId);
  }

  @RequirePermission('returns.write')
  @IdempotentPost(':returnId/close')
  @HttpCode(200)
  @ApiOkResponse({ type: ReturnResponse })
  @ApiConflictResponse({ description: MOVE_CONFLICT })
  @ApiOperation({ summary: 'Close a return', operationId: 'closeReturn' })
  close(@BrandCtx() ctx: BrandContext, @IdParam('returnId') returnId: number): Promise<ReturnResponse> {
    return this.returns.close(ctx, returnId);
  }

  @RequirePermission('returns.write')
  @IdempotentPost(':returnId/receive')
  @HttpCode(200)
  @ApiOkResponse({ type: ReturnResponse, description: 'Restocked units are back in stock (ledger reason return)' })
  @ApiConflictResponse({ description: MOVE_CONFLICT })
  @ApiUnprocessableEntityResponse({ description: 'A line not of the return, or more than is still expected' })
  @ApiOperation({ summary: 'Receive returned units', operationId: 'receiveReturn' })
  receive(
    @BrandCtx() ctx: BrandContext,
    @IdParam('returnId') returnId: number,
    @Body() body: ReceiveReturnDto,
  ): Promise<ReturnResponse> {
    return this.returns.receive(ctx, returnId, body);
  }

  @RequirePermission('returns.write')
  @IdempotentPost(':returnId/refund')
  @HttpCode(200)
  @ApiOkResponse({ type: ReturnResponse })
  @ApiConflictResponse({ description: 'Already refunded, not required, or the return was declined or canceled' })
  @ApiOperation({ summary: 'Record a refund', operationId: 'refundReturn' })
  refund(
    @BrandCtx() ctx: BrandContext,
    @IdParam('returnId') returnId: number,
    @Body() body: RefundReturnDto,
  ): Promise<ReturnResponse> {
    return this.returns.refund(ctx, returnId, body.refundKopeks);
  }
}
