import { Body, Controller, Get, Patch } from '@nestjs/common';
import { IdParam } from '../common/decorators/id-param.decorator';
import { ApiConflictResponse, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { ErrorText } from '../common/errors/error-texts';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { CreateUserDto } from './dto/create-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UsersService } from './users.service';
import { UserListResponse, UserResponse } from './dto/identity.responses';
import { IdempotentPost } from '../idempotency/idempotent-post.decorator';

@ApiTags('platform administration')
@Controller('admin/users')
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @RequirePermission(PLATFORM_ADMIN)
  @IdempotentPost()
  @ApiConflictResponse({ description: 'A user with this e-mail already exists' })
  @ApiCreatedResponse({ type: UserResponse })
  @ApiOperation({ summary: 'Create an account (superadministrator)', operationId: 'createUser' })
  create(@Body() body: CreateUserDto): Promise<UserResponse> {
    return this.users.create(body);
  }

  @RequirePermission(PLATFORM_ADMIN)
  @Get()
  @ApiOkResponse({ type: UserListResponse })
  @ApiOperation({ summary: 'Every account (superadministrator)', operationId: 'listUsers' })
  async list(): Promise<UserListResponse> {
    return { items: await this.users.list() };
  }

  @RequirePermission(PLATFORM_ADMIN)
  @Patch(':userId')
  @ApiConflictResponse({ description: `${ErrorText.lastSuperadmin} | ${ErrorText.lastSettingsManager}` })
  @ApiOkResponse({ type: UserResponse })
  @ApiOperation({ summary: 'Change an account (superadministrator)', operationId: 'updateUser' })
  update(@IdParam('userId') userId: number, @Body() body: UpdateUserDto): Promise<UserResponse> {
    return this.users.update(userId, body);
  }
}
