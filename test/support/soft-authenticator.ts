import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

type Credential = { rpId: string; userHandle: string; privateKey: KeyObject; counter: number };

const ES256 = -7;
// authenticatorData flags (WebAuthn §6.1): user present, user verified, attested credential data.
const [UP, UV, AT] = [0x01, 0x04, 0x40];
const common = { type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {} } as const;

const sha256 = (data: string | Uint8Array): Buffer => createHash('sha256').update(data).digest();
// Copied because a Buffer's backing store is typed ArrayBufferLike, which the helper's signature refuses.
const b64url = (bytes: Uint8Array): string => isoBase64URL.fromBuffer(new Uint8Array(bytes));

/**
 * A software platform authenticator speaking the JSON forms of navigator.credentials.create()/get(),
 * so e2e tests run real ceremonies (real P-256 keys and signatures) with no browser.
 */
export class SoftAuthenticator {
  private readonly credentials = new Map<string, Credential>();

  constructor(private readonly origin: string) {}

  get credentialIds(): string[] {
    return [...this.credentials.keys()];
  }

  setCounter(credentialId: string, counter: number): void {
    const credential = this.credentials.get(credentialId);
    if (!credential) throw new Error(`no credential ${credentialId}`);
    credential.counter = counter;
  }

  create(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    // A real authenticator refuses rather than silently using an algorithm the RP did not offer.
    if (!options.pubKeyCredParams.some((param) => param.alg === ES256)) throw new Error('NotSupportedError: no ES256');
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((descriptor) => descriptor.id));
    if (this.credentialIds.some((id) => excluded.has(id) && this.credentials.get(id)?.rpId === rpId)) {
      throw new Error('InvalidStateError: credential already registered');
    }
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, ES256],
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
    const rawId = randomBytes(16);
    // aaguid all zeros: attestation "none" discloses no model. Then the id's 2-byte length, the id, the key.
    const attested = [Buffer.alloc(16), Buffer.from([0, rawId.length]), rawId, coseKey];
    const authData = Buffer.concat([authDataHead(rpId, UP | UV | AT, 0), ...attested]);
    const id = b64url(rawId);
    this.credentials.set(id, { rpId, userHandle: options.user.id, privateKey, counter: 0 });
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, never>()],
        ['authData', authData],
      ]),
    );
    return {
      ...common,
      id,
      rawId: id,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** Signs with a credential for options.rpId: one of allowCredentials, or any when that list is empty (discoverable). */
  get(options: PublicKeyCredentialRequestOptionsJSON): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = (options.allowCredentials ?? []).map((descriptor) => descriptor.id);
    const held = [...this.credentials].find(([id, c]) => c.rpId === rpId && (!allowed.length || allowed.includes(id)));
    if (!held) throw new Error(`NotAllowedError: no credential for ${rpId}`);
    const [id, credential] = held;
    credential.counter += 1;
    const authData = authDataHead(rpId, UP | UV, credential.counter);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      ...common,
      id,
      rawId: id,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
    };
  }

  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }
}

function authDataHead(rpId: string, flags: number, counter: number): Buffer {
  const head = Buffer.alloc(37);
  sha256(rpId).copy(head, 0);
  head.writeUInt8(flags, 32);
  head.writeUInt32BE(counter, 33);
  return head;
}
