import { ApiProperty } from '@nestjs/swagger';
import { BRAND_PERMISSIONS, type BrandPermission } from '../../common/context/permissions';

export class UserResponse {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty() isSuperadmin: boolean;
  @ApiProperty() active: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class UserListResponse {
  @ApiProperty({ type: [UserResponse] }) items: UserResponse[];
}

export class BrandResponse {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty() slug: string;
  @ApiProperty({ type: String, nullable: true }) staffEmail: string | null;
}

export class BrandListResponse {
  @ApiProperty({ type: [BrandResponse] }) items: BrandResponse[];
}

export class MembershipResponse {
  @ApiProperty() brandId: number;
  @ApiProperty() userId: number;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true, description: 'Empty when the membership ended' })
  permissions: BrandPermission[];
}

export class MembershipEntry {
  @ApiProperty() brandId: number;
  @ApiProperty() brandName: string;
  @ApiProperty() brandSlug: string;
  @ApiProperty({ enum: BRAND_PERMISSIONS, isArray: true }) permissions: BrandPermission[];
  @ApiProperty({ description: "The brand's policy: its members' sessions need a second factor" })
  secondFactorRequired: boolean;
}

export class SessionUser {
  @ApiProperty() id: number;
  @ApiProperty() email: string;
  @ApiProperty() isSuperadmin: boolean;
}

export class LoginResponse {
  @ApiProperty({ description: 'The session as a bearer token; the same value is set as the `session` cookie' })
  token: string;
  @ApiProperty({ description: 'Sent as X-CSRF-Token with every change made through the cookie' })
  csrfToken: string;
  @ApiProperty({ type: SessionUser }) user: SessionUser;
}

export class MeResponse extends SessionUser {
  @ApiProperty({ type: [MembershipEntry] }) memberships: MembershipEntry[];
  @ApiProperty({ description: 'The account holds an authenticator app or a passkey' }) secondFactor: boolean;
  @ApiProperty({
    enum: ['totp', 'passkey', 'recovery_code'],
    isArray: true,
    description: 'What it holds of them (empty without a second factor), as the two-step sign-in names them',
  })
  secondFactorMethods: string[];
  @ApiProperty({ description: "The session's CSRF token (as login gave it), for a page opened in a new tab" })
  csrfToken: string;
}

export class SessionEntry {
  @ApiProperty({ format: 'uuid', description: 'Not the token: it only names the session' }) id: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time', description: 'Lags at most a minute' }) lastSeenAt: string;
  @ApiProperty({ type: String, nullable: true, description: 'The client address of the last use' }) ip: string | null;
  @ApiProperty({ type: String, nullable: true }) userAgent: string | null;
  @ApiProperty({ description: 'The session this request came with' }) current: boolean;
}

export class SessionListResponse {
  @ApiProperty({ type: [SessionEntry] }) items: SessionEntry[];
}

export class EmptyResponse {}
