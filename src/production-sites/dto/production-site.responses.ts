import { ApiProperty } from '@nestjs/swagger';

export class SiteResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class SiteListResponse {
  @ApiProperty({ type: [SiteResponse] }) items: SiteResponse[];
}

export class SiteKeyResponse {
  @ApiProperty() id: number;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The key's last 4 characters (null for keys issued before hints)",
  })
  keyHint: string | null;
  @ApiProperty() siteId: number;
  @ApiProperty({ enum: ['active', 'revoked'] }) status: 'active' | 'revoked';
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) revokedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
}

export class SiteKeyListResponse {
  @ApiProperty({ type: [SiteKeyResponse] }) items: SiteKeyResponse[];
}

export class IssuedSiteKeyResponse extends SiteKeyResponse {
  @ApiProperty({ description: 'The key itself, in this response only: only its fingerprint is stored' })
  key: string;
}

export class SiteRef {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
}

export class BrandRef {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
}

export class ProductionMeResponse {
  @ApiProperty({ type: SiteRef }) site: SiteRef;
  @ApiProperty({ type: BrandRef }) brand: BrandRef;
}
