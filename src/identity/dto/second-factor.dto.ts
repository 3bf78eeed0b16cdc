import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsObject, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { OptionalNotNull } from '../../common/validation/field-decorators';

const WEBAUTHN_JSON =
  'The credential as WebAuthn JSON (what @simplewebauthn/browser returns), checked by the server library';

/** One answer of a second factor: the service asks for exactly one of the three. */
export class SecondFactorAnswerDto {
  @ApiPropertyOptional({ example: '287082', description: "The authenticator app's current 6-digit code" })
  @OptionalNotNull()
  @IsString()
  @MaxLength(16)
  code?: string;

  @ApiPropertyOptional({ example: 'abcd-efgh-ijkl-mnop', description: 'One of the recovery codes, used once' })
  @OptionalNotNull()
  @IsString()
  @MaxLength(64)
  recoveryCode?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: `An assertion. ${WEBAUTHN_JSON}` })
  @OptionalNotNull()
  @IsObject()
  passkey?: Record<string, unknown>;
}

export class TotpConfirmDto {
  @ApiProperty({ example: '287082' })
  @IsString()
  @MaxLength(16)
  code: string;
}

export class LoginChallengeDto {
  @ApiProperty({ description: 'The challengeToken the password step answered with' })
  @IsString()
  @MaxLength(100)
  challengeToken: string;
}

export class LoginSecondFactorDto extends SecondFactorAnswerDto {
  @ApiProperty({ description: 'The challengeToken the password step answered with' })
  @IsString()
  @MaxLength(100)
  challengeToken: string;
}

export class AddPasskeyDto {
  @ApiProperty({ example: 'Work laptop', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @Matches(/\S/, { message: 'name must not be blank' })
  name: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: `A new credential. ${WEBAUTHN_JSON}` })
  @IsObject()
  credential: Record<string, unknown>;
}

export class SecurityPolicyDto {
  @ApiProperty({ description: "While true, members' sessions without a second factor are refused in the brand" })
  @IsBoolean()
  requireSecondFactor: boolean;
}
