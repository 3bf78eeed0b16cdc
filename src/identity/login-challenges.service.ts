import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import type { Environment } from '../config/environment';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountTokenHash, mintAccountToken } from './account-token';
import { accountEvent } from './account-event';
import type { UserEntity } from './entities/user.entity';
import { LoginChallengesRepository } from './login-challenges.repository';
import { LoginThrottle } from './login-throttle.service';
import { PasskeysService } from './passkeys.service';
import type { SecondFactorAnswer, SecondFactorMethod } from './second-factor-answer';
import { SecondFactorService } from './second-factor.service';
import { UsersService } from './users.service';

export interface SecondStep {
  secondFactorRequired: true;
  challengeToken: string;
  methods: SecondFactorMethod[];
}

/**
 * The second step of a sign-in (contract §19). The right password of an account with a second
 * factor opens a challenge (its token kept as a fingerprint) instead of a session; it lives
 * LOGIN_CHALLENGE_SECONDS and five wrong answers. Every answer also takes a slot of the login
 * throttle, and the password's slot is given back only by the right answer, so a known password
 * does not buy unlimited guesses at the code.
 */
@Injectable()
export class LoginChallengesService {
  private readonly ttlSeconds: number;

  constructor(
    private readonly challenges: LoginChallengesRepository,
    private readonly factors: SecondFactorService,
    private readonly passkeys: PasskeysService,
    private readonly users: UsersService,
    private readonly throttle: LoginThrottle,
    private readonly journal: SecurityJournal,
    config: ConfigService<Environment, true>,
  ) {
    this.ttlSeconds = config.get('LOGIN_CHALLENGE_SECONDS', { infer: true });
  }

  /** A challenge for an account whose password was right, or null when it holds no second factor. */
  async open(userId: number): Promise<SecondStep | null> {
    const methods = await this.factors.methodsOf(userId);
    if (methods.length === 0) return null;
    const { token, hash } = mintAccountToken('loginChallenge');
    await this.challenges.insert(hash, userId, this.ttlSeconds);
    return { secondFactorRequired: true, challengeToken: token, methods };
  }

  async passkeyOptions(challengeToken: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const { hash, userId } = await this.live(challengeToken);
    const options = await this.passkeys.requestOptions(userId);
    if (!options) throw AppError.badRequest([ErrorText.noPasskey]);
    await this.challenges.setPasskeyChallenge(hash, options.challenge);
    return options;
  }

  /** The account the right answer proves; 401 `Invalid code` for a wrong one, `Unauthorized` for a dead challenge. */
  async answer(ctx: RequestContext, challengeToken: string, answer: SecondFactorAnswer): Promise<UserEntity> {
    const hash = accountTokenHash('loginChallenge', challengeToken);
    const live = hash && (await this.challenges.findLive(hash));
    const user = live && (await this.users.findActive(live.user_id));
    if (!hash || !user) throw AppError.unauthorized();
    // The login throttle first, so a locked e-mail spends none of the challenge's answers.
    await this.throttle.reserve(user.email);
    const taken = await this.challenges.takeAnswer(hash);
    if (!taken) throw AppError.unauthorized();
    if (!(await this.factors.proves(ctx, user.id, answer, taken.passkey_challenge))) {
      await this.journal.record(ctx, accountEvent('user_sign_in_failed', user.id, { by: 'second_factor' }));
      throw AppError.unauthorized(ErrorText.invalidCode);
    }
    // A right answer raced by another right one (or a new password) may lose here; its factor is spent.
    if (!(await this.challenges.end(hash))) throw AppError.unauthorized();
    await this.throttle.succeeded(user.email);
    return user;
  }

  private async live(challengeToken: string) {
    const hash = accountTokenHash('loginChallenge', challengeToken);
    const challenge = hash && (await this.challenges.findLive(hash));
    if (!hash || !challenge) throw AppError.unauthorized();
    return { hash, userId: challenge.user_id };
  }
}
