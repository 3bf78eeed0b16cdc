import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Outbox } from './outbox';
import { OutboxJobEntity } from './outbox-job.entity';

/** The outbox table and its enqueue side, available to every module. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([OutboxJobEntity])],
  providers: [Outbox],
  exports: [Outbox],
})
export class OutboxModule {}
