import { ApiProperty } from '@nestjs/swagger';

export class TotpEnrolmentResponse {
  @ApiProperty({ description: 'The secret in base32, for typing in; not active until confirmed' }) secret: string;
  @ApiProperty({ example: 'otpauth://totp/admin.example:a%40b.example?secret=…', description: 'For the QR code' })
  otpauthUri: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({ type: [String], description: 'Ten codes, shown this once; each works once instead of a code' })
  recoveryCodes: string[];
}

export class SecondStepResponse {
  @ApiProperty({ enum: [true] }) secondFactorRequired: true;
  @ApiProperty({ description: 'For POST /auth/login/second-factor; lives LOGIN_CHALLENGE_SECONDS, 5 wrong answers' })
  challengeToken: string;
  @ApiProperty({ enum: ['totp', 'passkey', 'recovery_code'], isArray: true, description: 'What the account holds' })
  methods: string[];
}

export class PasskeyEntry {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: string | null;
}

export class PasskeyListResponse {
  @ApiProperty({ type: [PasskeyEntry] }) items: PasskeyEntry[];
}

export class SecurityPolicyResponse {
  @ApiProperty() requireSecondFactor: boolean;
}
