import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountEvent } from './account-event';
import { AuthenticatorAppService } from './authenticator-app.service';
import { PasskeysService } from './passkeys.service';
import type { SecondFactorAnswer, SecondFactorMethod } from './second-factor-answer';
import { SecondFactorsRepository } from './second-factors.repository';

/** What an account holds of the second factor, and whether an answer proves it. */
@Injectable()
export class SecondFactorService {
  constructor(
    private readonly held: SecondFactorsRepository,
    private readonly app: AuthenticatorAppService,
    private readonly passkeys: PasskeysService,
    private readonly journal: SecurityJournal,
  ) {}

  /** The methods the account can answer with; empty when it holds no second factor. */
  async methodsOf(userId: number): Promise<SecondFactorMethod[]> {
    const held = await this.held.methodsOf(userId);
    if (!held.totp && !held.passkey) return [];
    const methods: SecondFactorMethod[] = [];
    if (held.totp) methods.push('totp');
    if (held.passkey) methods.push('passkey');
    if (held.recovery_code) methods.push('recovery_code');
    return methods;
  }

  /**
   * Whether the answer proves the account. A passkey answers `passkeyChallenge` (null when no
   * options were asked for: refused). A recovery code used is journaled, for it is spent.
   */
  async proves(
    ctx: RequestContext,
    userId: number,
    answer: SecondFactorAnswer,
    passkeyChallenge: string | null,
  ): Promise<boolean> {
    switch (answer.kind) {
      case 'code':
        return this.app.verifyCode(userId, answer.code);
      case 'passkey':
        return passkeyChallenge !== null && this.passkeys.verifyAssertion(userId, answer.passkey, passkeyChallenge);
      case 'recoveryCode': {
        if (!(await this.app.useRecoveryCode(userId, answer.recoveryCode))) return false;
        await this.journal.record(ctx, accountEvent('recovery_code_used', userId));
        return true;
      }
    }
  }
}
