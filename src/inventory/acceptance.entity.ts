import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn } from 'typeorm';

/** Finished goods a production site handed over; its stock movements point here. */
@Entity('acceptances')
export class AcceptanceEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  brandId: number;

  @Column({ name: 'site_id', type: 'integer' })
  // Named, not imported: production sites use this module for their acceptances.
  @ForeignKey('ProductionSiteEntity', { name: 'fk_acceptances_site' })
  siteId: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
