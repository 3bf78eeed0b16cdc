import { Module } from '@nestjs/common';
import { AdminAreaController } from './admin-area.controller';
import { BuiltFiles } from './built-files';

/** The store's admin area at /dashboard/ (contract §13): files only, no server logic of its own. */
@Module({
  controllers: [AdminAreaController],
  providers: [{ provide: BuiltFiles, useFactory: () => new BuiltFiles() }],
})
export class AdminAreaModule {}
