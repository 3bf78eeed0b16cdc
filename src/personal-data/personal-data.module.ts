import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { OrdersModule } from '../orders/orders.module';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { PersonalDataController } from './personal-data.controller';
import { PersonalDataRepository } from './personal-data.repository';
import { PersonalDataService } from './personal-data.service';
import { RetentionSettingEntity } from './retention-setting.entity';
import { RetentionSweep } from './retention-sweep';

/** Buyers' personal data (contract §17): the map of its copies, erasure, export and retention. */
@Module({
  imports: [IdempotencyModule, OrdersModule, SecurityJournalModule, TypeOrmModule.forFeature([RetentionSettingEntity])],
  controllers: [PersonalDataController],
  providers: [PersonalDataRepository, PersonalDataService, RetentionSweep],
})
export class PersonalDataModule {}
