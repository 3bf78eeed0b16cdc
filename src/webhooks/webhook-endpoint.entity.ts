import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A brand's receiver of outbound events (contract §10). Its signing secrets are kept encrypted. */
@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_brand', ['brandId', 'id'])
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('identity', { generatedIdentity: 'BY DEFAULT' })
  id: number;

  @Column({ name: 'brand_id', type: 'integer' })
  @ForeignKey('BrandEntity', { name: 'fk_webhook_endpoints_brand' })
  brandId: number;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ name: 'event_types', type: 'text', array: true })
  eventTypes: string[];

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  /** AES-256-GCM: 12-byte IV, 16-byte tag, then the ciphertext of the `whsec_` secret. */
  @Column({ name: 'secret_sealed', type: 'bytea' })
  secretSealed: Buffer;

  /** The secret before the last rotation, still signing until `previous_secret_expires_at`. */
  @Column({ name: 'previous_secret_sealed', type: 'bytea', nullable: true })
  previousSecretSealed: Buffer | null;

  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt: Date | null;

  /** The first failed attempt since the last success: the endpoint is disabled after long enough. */
  @Column({ name: 'failing_since', type: 'timestamptz', nullable: true })
  failingSince: Date | null;

  @Column({ name: 'disabled_at', type: 'timestamptz', nullable: true })
  disabledAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
