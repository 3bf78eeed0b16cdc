import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiTags } from '@nestjs/swagger';
import { PLATFORM_ADMIN } from '../common/context/permissions';
import { RequirePermission } from '../common/decorators/require-permission.decorator';
import { ParseIdPipe } from '../common/validation/parse-id.pipe';
import { CreateUserDto } from './dto/create-user.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import { UsersService } from './users.service';

@ApiTags('platform administration')
@Controller('admin/users')
export class AdminUsersController {
  constructor(private readonly users: UsersService) {}

  @RequirePermission(PLATFORM_ADMIN)
  @Post()
  @ApiConflictResponse({ description: 'A user with this e-mail already exists' })
  create(@Body() body: CreateUserDto) {
    return this.users.create(body);
  }

  @RequirePermission(PLATFORM_ADMIN)
  @Get()
  async list() {
    return { items: await this.users.list() };
  }

  @RequirePermission(PLATFORM_ADMIN)
  @Patch(':userId')
  @ApiConflictResponse({ description: 'The last active superadministrator cannot be removed' })
  update(@Param('userId', ParseIdPipe) userId: number, @Body() body: UpdateUserDto) {
    return this.users.update(userId, body);
  }
}
