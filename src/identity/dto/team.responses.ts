import { ApiProperty } from '@nestjs/swagger';
import { BRAND_PERMISSIONS, type BrandPermission } from '../../common/context/permissions';
import type { InvitationStatus } from '../entities/invitation.entity';

const INVITATION_STATUSES: InvitationStatus[] = ['pending', 'accepted', 'revoked', 'replaced'];

export class InvitationAuthor {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
}

export class InvitationResponse {
  @ApiProperty() id: number;
  @ApiProperty({ description: 'The invited address, lower-cased' }) email: string;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true }) permissions: BrandPermission[];
  @ApiProperty({ enum: INVITATION_STATUSES }) status: InvitationStatus;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: '7 days after createdAt' }) expiresAt: string;
  @ApiProperty({ type: InvitationAuthor, nullable: true, description: 'null only once the inviting account is gone' })
  invitedBy: InvitationAuthor | null;
}

export class InvitationListResponse {
  @ApiProperty({ type: [InvitationResponse], description: 'Pending and unexpired, newest first' })
  items: InvitationResponse[];
}

export class InvitationInfoResponse {
  @ApiProperty() brandName: string;
  @ApiProperty({ description: 'The invited address' }) email: string;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true }) permissions: BrandPermission[];
  @ApiProperty({
    description: 'true: sign in as that account, then accept; false: accept with a password, which creates it',
  })
  accountExists: boolean;
}

export class InvitationMembershipResponse {
  @ApiProperty() brandId: number;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true }) permissions: BrandPermission[];
}

export class MemberResponse {
  @ApiProperty() userId: number;
  @ApiProperty() email: string;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true }) permissions: BrandPermission[];
  @ApiProperty({ description: 'Whether the account holds an authenticator app or a passkey' }) secondFactor: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastSignInAt: string | null;
}

export class MemberListResponse {
  @ApiProperty({ type: [MemberResponse], description: 'Ordered by e-mail' }) items: MemberResponse[];
}
