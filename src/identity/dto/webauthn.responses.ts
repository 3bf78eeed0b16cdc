import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// WebAuthn's options in their JSON form (W3C WebAuthn Level 3, §5.1.3's toJSON), as
// @simplewebauthn/server writes them and @simplewebauthn/browser's start* functions take them.

const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'];
const HINTS = ['hybrid', 'security-key', 'client-device'];
const USER_VERIFICATION = ['required', 'preferred', 'discouraged'];

export class RelyingPartyEntity {
  @ApiPropertyOptional({ description: 'WEBAUTHN_RP_ID, or PUBLIC_URL’s host' }) id?: string;
  @ApiProperty() name: string;
}

export class WebAuthnUserEntity {
  @ApiProperty({ description: 'The user handle, base64url' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() displayName: string;
}

export class CredentialParameters {
  @ApiProperty({ description: 'A COSE algorithm' }) alg: number;
  @ApiProperty({ enum: ['public-key'] }) type: 'public-key';
}

export class CredentialDescriptor {
  @ApiProperty({ description: 'The credential id, base64url' }) id: string;
  @ApiProperty({ enum: ['public-key'] }) type: 'public-key';
  @ApiPropertyOptional({ enum: TRANSPORTS, isArray: true }) transports?: string[];
}

export class AuthenticatorSelection {
  @ApiPropertyOptional({ enum: ['platform', 'cross-platform'] }) authenticatorAttachment?: string;
  @ApiPropertyOptional({ enum: ['discouraged', 'preferred', 'required'] }) residentKey?: string;
  @ApiPropertyOptional() requireResidentKey?: boolean;
  @ApiPropertyOptional({ enum: USER_VERIFICATION }) userVerification?: string;
}

export class CreationExtensions {
  @ApiPropertyOptional() credProps?: boolean;
}

export class CreationOptionsResponse {
  @ApiProperty({ description: 'base64url; kept by the server, answered once' }) challenge: string;
  @ApiProperty({ type: RelyingPartyEntity }) rp: RelyingPartyEntity;
  @ApiProperty({ type: WebAuthnUserEntity }) user: WebAuthnUserEntity;
  @ApiProperty({ type: [CredentialParameters] }) pubKeyCredParams: CredentialParameters[];
  @ApiPropertyOptional({ description: 'Milliseconds' }) timeout?: number;
  @ApiPropertyOptional({ type: [CredentialDescriptor], description: 'The passkeys the account holds already' })
  excludeCredentials?: CredentialDescriptor[];
  @ApiPropertyOptional({ type: AuthenticatorSelection }) authenticatorSelection?: AuthenticatorSelection;
  @ApiPropertyOptional({ enum: HINTS, isArray: true }) hints?: string[];
  @ApiPropertyOptional({ enum: ['none', 'indirect', 'direct', 'enterprise'] }) attestation?: string;
  @ApiPropertyOptional({ type: CreationExtensions }) extensions?: CreationExtensions;
}

export class RequestOptionsResponse {
  @ApiProperty({ description: 'base64url; kept by the server, answered once' }) challenge: string;
  @ApiPropertyOptional({ description: 'Milliseconds' }) timeout?: number;
  @ApiPropertyOptional() rpId?: string;
  @ApiPropertyOptional({ type: [CredentialDescriptor], description: "The account's passkeys" })
  allowCredentials?: CredentialDescriptor[];
  @ApiPropertyOptional({ enum: USER_VERIFICATION }) userVerification?: string;
  @ApiPropertyOptional({ enum: HINTS, isArray: true }) hints?: string[];
}
