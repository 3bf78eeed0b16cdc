import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrandOwnership } from './brand-ownership';
import { JournalEntryEntity } from './journal-entry.entity';
import { SecurityJournalController } from './security-journal.controller';
import { SecurityJournalRepository } from './security-journal.repository';
import { SecurityJournal } from './security-journal.service';

/** The security journal, and the brand-ownership check that writes to it. */
@Module({
  imports: [TypeOrmModule.forFeature([JournalEntryEntity])],
  controllers: [SecurityJournalController],
  providers: [SecurityJournalRepository, SecurityJournal, BrandOwnership],
  exports: [SecurityJournal, BrandOwnership],
})
export class SecurityJournalModule {}
