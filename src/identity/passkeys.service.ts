import { Injectable, Logger } from '@nestjs/common';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountEvent, userOf } from './account-event';
import { PasskeysRepository, type PasskeyRow } from './passkeys.repository';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { RelyingParty } from './relying-party';
import { SecondFactorsRepository } from './second-factors.repository';
import { Transactions } from '../database/transactions';

/** How long a passkey's options stay good for their answer. */
const CEREMONY_SECONDS = 300;
/** WebAuthn's longest credential id, 1023 bytes, in base64url. */
const CREDENTIAL_ID_MAX = 1366;
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

/** The transports a client listed that WebAuthn knows, each once; anything else is dropped. */
function knownTransports(listed: unknown): string[] {
  if (!Array.isArray(listed)) return [];
  return [...new Set(listed.filter((entry): entry is string => TRANSPORTS.has(entry as string)))];
}

export interface PasskeyView {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/**
 * An account's passkeys (contract §19), verified by @simplewebauthn/server: the origin and the
 * relying party are checked, and each challenge is kept server-side and answered once. An
 * assertion's counter is taken under the database's own check, so a cloned authenticator that
 * repeats a counter is refused even by two instances at once.
 */
@Injectable()
export class PasskeysService {
  private readonly logger = new Logger(PasskeysService.name);

  constructor(
    private readonly passkeys: PasskeysRepository,
    private readonly relyingParty: RelyingParty,
    private readonly journal: SecurityJournal,
    private readonly held: SecondFactorsRepository,
    private readonly codes: RecoveryCodesRepository,
    private readonly transactions: Transactions,
  ) {}

  async registrationOptions(ctx: RequestContext): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const user = userOf(ctx);
    const held = await this.passkeys.credentialsOf(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.relyingParty.name,
      rpID: this.relyingParty.id,
      userName: user.email,
      userID: new TextEncoder().encode(`user-${user.id}`),
      attestationType: 'none',
      excludeCredentials: held.map((credential) => ({
        id: credential.credential_id,
        transports: credential.transports,
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
      timeout: CEREMONY_SECONDS * 1000,
    });
    await this.passkeys.putChallenge(user.sessionId, 'register', options.challenge, CEREMONY_SECONDS);
    return options;
  }

  async register(ctx: RequestContext, name: string, credential: object): Promise<PasskeyView> {
    const user = userOf(ctx);
    const challenge = await this.passkeys.takeChallenge(user.sessionId, 'register');
    if (challenge === null) throw AppError.badRequest([ErrorText.noPasskeyCeremony]);
    const verified = await verifyRegistrationResponse({
      response: credential as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.id,
      requireUserVerification: false,
    }).catch((error: Error) => this.refused('registration', error));
    if (!verified?.verified) throw AppError.badRequest([ErrorText.passkeyNotVerified]);
    const { credential: made } = verified.registrationInfo;
    // The library checks the signature, not what the client lists beside it: bound both here.
    if (made.id.length > CREDENTIAL_ID_MAX) throw AppError.badRequest([ErrorText.passkeyNotVerified]);
    const row = await this.transactions.run(async (tx) => {
      const before = await this.held.methodsOf(user.id, tx);
      const added = await this.passkeys.insert(tx, {
        userId: user.id,
        name,
        credentialId: made.id,
        publicKey: Buffer.from(made.publicKey),
        counter: made.counter,
        transports: knownTransports(made.transports),
      });
      if (!added) throw AppError.conflict(ErrorText.passkeyRegistered);
      await this.journal.recordWith(tx, ctx, accountEvent('passkey_added', user.id, { passkeyId: added.id, name }));
      if (!before.totp && !before.passkey) {
        await this.journal.recordWith(tx, ctx, accountEvent('second_factor_enabled', user.id, { method: 'passkey' }));
      }
      return added;
    });
    return viewOf(row);
  }

  async list(ctx: RequestContext): Promise<PasskeyView[]> {
    return (await this.passkeys.listOf(userOf(ctx).id)).map(viewOf);
  }

  /**
   * The last factor gone, the recovery codes go too: kept, they would work again, unseen, the
   * day a new factor is added.
   */
  async remove(ctx: RequestContext, passkeyId: number): Promise<void> {
    const user = userOf(ctx);
    await this.transactions.run(async (tx) => {
      if (!(await this.passkeys.remove(tx, user.id, passkeyId))) throw AppError.notFound();
      await this.journal.recordWith(tx, ctx, accountEvent('passkey_removed', user.id, { passkeyId }));
      const left = await this.held.methodsOf(user.id, tx);
      if (!left.totp && !left.passkey) {
        await this.codes.removeAll(tx, user.id);
        await this.journal.recordWith(tx, ctx, accountEvent('second_factor_disabled', user.id, { method: 'passkey' }));
      }
    });
  }

  /** Request options listing the account's passkeys; null when it holds none. */
  async requestOptions(userId: number): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
    const held = await this.passkeys.credentialsOf(userId);
    if (held.length === 0) return null;
    return generateAuthenticationOptions({
      rpID: this.relyingParty.id,
      allowCredentials: held.map((credential) => ({ id: credential.credential_id, transports: credential.transports })),
      userVerification: 'preferred',
      timeout: CEREMONY_SECONDS * 1000,
    });
  }

  /** Request options for a step-up, their challenge kept on the session. */
  async stepUpOptions(ctx: RequestContext): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const user = userOf(ctx);
    const options = await this.requestOptions(user.id);
    if (!options) throw AppError.badRequest([ErrorText.noPasskey]);
    await this.passkeys.putChallenge(user.sessionId, 'step_up', options.challenge, CEREMONY_SECONDS);
    return options;
  }

  takeStepUpChallenge(sessionId: string): Promise<string | null> {
    return this.passkeys.takeChallenge(sessionId, 'step_up');
  }

  /** Whether the assertion is one of the account's passkeys answering `challenge`. */
  async verifyAssertion(userId: number, assertion: AuthenticationResponseJSON, challenge: string): Promise<boolean> {
    const held = await this.passkeys.credentialsOf(userId);
    const stored = held.find((credential) => credential.credential_id === assertion?.id);
    if (!stored) return false;
    const verified = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge,
      expectedOrigin: this.relyingParty.origin,
      expectedRPID: this.relyingParty.id,
      credential: {
        id: stored.credential_id,
        publicKey: new Uint8Array(stored.public_key),
        counter: Number(stored.counter),
        transports: stored.transports,
      },
      requireUserVerification: false,
    }).catch((error: Error) => this.refused('assertion', error));
    if (!verified?.verified) return false;
    return this.passkeys.noteUse(stored.id, verified.authenticationInfo.newCounter);
  }

  /**
   * A malformed or forged answer: the caller is refused. The library's message is not logged: it
   * quotes what the caller sent and the challenge expected.
   */
  private refused(ceremony: string, error: Error): null {
    this.logger.debug(`passkey ${ceremony} refused (${error.name})`);
    return null;
  }
}

function viewOf(row: PasskeyRow): PasskeyView {
  return { id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at };
}
