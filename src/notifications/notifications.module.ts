import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Outbox } from './outbox';
import { OutboxJobEntity } from './outbox-job.entity';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxJobEntity])],
  providers: [Outbox],
  exports: [Outbox],
})
export class NotificationsModule {}
