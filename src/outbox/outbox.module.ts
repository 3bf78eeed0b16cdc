import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Outbox } from './outbox';
import { OutboxJobEntity } from './outbox-job.entity';

/** The outbox table and its enqueue side, for the modules whose changes cause follow-up work. */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxJobEntity])],
  providers: [Outbox],
  exports: [Outbox],
})
export class OutboxModule {}
