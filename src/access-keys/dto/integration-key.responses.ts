import { ApiProperty } from '@nestjs/swagger';
import { BRAND_PERMISSIONS, type BrandPermission } from '../../common/context/permissions';

export class KeyAuthor {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
}

export class IntegrationKeyResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The first characters of the key, to recognise it' }) keyHint: string;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true }) permissions: BrandPermission[];
  @ApiProperty() fullAccess: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: string | null;
  @ApiProperty({ enum: ['active', 'expired', 'revoked'] }) status: 'active' | 'expired' | 'revoked';
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: KeyAuthor }) createdBy: KeyAuthor;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The address of that last use' }) lastUsedIp: string | null;
  @ApiProperty({ type: [String], nullable: true, description: 'Where the key may be used from; null: any address' })
  allowedIps: string[] | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The key this one replaced by a roll' })
  rolledFromId: number | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
}

export class IssuedIntegrationKeyResponse extends IntegrationKeyResponse {
  @ApiProperty({ description: 'The key itself, in this response only: only its fingerprint is stored' })
  key: string;
}

export class IntegrationKeyListResponse {
  @ApiProperty({ type: [IntegrationKeyResponse] }) items: IntegrationKeyResponse[];
}
