import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AccessKeysModule } from '../access-keys/access-keys.module';
import { RequestCountEntity } from './request-count.entity';
import { RequestFailureEntity } from './request-failure.entity';
import { RequestLogController } from './request-log.controller';
import { RequestLogRepository } from './request-log.repository';
import { RequestLogService } from './request-log.service';
import { RequestRecorder } from './request-recorder';

/** The request log of integration keys: what each was answered, counted and, for failures, kept (contract §15). */
@Module({
  imports: [AccessKeysModule, TypeOrmModule.forFeature([RequestCountEntity, RequestFailureEntity])],
  controllers: [RequestLogController],
  providers: [RequestLogRepository, RequestLogService, RequestRecorder],
})
export class RequestLogModule {}
