import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Outbox } from './outbox';
import { OutboxJobEntity } from './outbox-job.entity';
import { OutboxJobs } from './outbox-jobs.repository';

/** The outbox table and its enqueue side, for the modules whose changes cause follow-up work. */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxJobEntity])],
  providers: [Outbox, OutboxJobs],
  exports: [Outbox, OutboxJobs],
})
export class OutboxModule {}
