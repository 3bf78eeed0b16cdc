import { Injectable } from '@nestjs/common';
import type { RequestContext } from '../common/context/request-context';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { SecretBox } from '../common/secrets/secret-box';
import { Transactions } from '../database/transactions';
import { SecurityJournal } from '../security-journal/security-journal.service';
import { accountEvent, userOf } from './account-event';
import { mintRecoveryCodes, recoveryCodeHash } from './recovery-code';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { RelyingParty } from './relying-party';
import { SecondFactorsRepository } from './second-factors.repository';
import { newTotpSecret, otpauthUriOf, stepOfCode } from './totp';
import { TotpAuthenticatorsRepository } from './totp-authenticators.repository';

/**
 * An account's authenticator app and recovery codes (contract §19). The secret is sealed at rest;
 * a code is taken for its time step once; recovery codes are shown once and kept as fingerprints.
 */
@Injectable()
export class AuthenticatorAppService {
  constructor(
    private readonly apps: TotpAuthenticatorsRepository,
    private readonly codes: RecoveryCodesRepository,
    private readonly held: SecondFactorsRepository,
    private readonly box: SecretBox,
    private readonly transactions: Transactions,
    private readonly journal: SecurityJournal,
    private readonly relyingParty: RelyingParty,
  ) {}

  /** A new secret, not active until confirmed; asked again, it replaces the unconfirmed one. */
  async enrol(ctx: RequestContext): Promise<{ secret: string; otpauthUri: string }> {
    const user = userOf(ctx);
    const secret = newTotpSecret();
    if (!(await this.apps.startEnrolment(user.id, this.box.seal(secret)))) {
      throw AppError.conflict(ErrorText.authenticatorAppExists);
    }
    return { secret, otpauthUri: otpauthUriOf(secret, this.relyingParty.id, user.email) };
  }

  async confirm(ctx: RequestContext, code: string): Promise<{ recoveryCodes: string[] }> {
    const user = userOf(ctx);
    const app = await this.apps.find(user.id);
    if (!app || app.confirmed) throw AppError.conflict(ErrorText.noAuthenticatorAppPending);
    const step = stepOfCode(this.box.open(app.secret_sealed), code);
    if (step === null) throw AppError.badRequest([ErrorText.invalidCode]);
    const minted = mintRecoveryCodes();
    const confirmed = await this.transactions.run(async (tx) => {
      if (!(await this.apps.confirm(tx, user.id, step, app.secret_sealed))) return false;
      await this.codes.replace(
        tx,
        user.id,
        minted.map((entry) => entry.hash),
      );
      await this.journal.recordWith(tx, ctx, accountEvent('second_factor_enabled', user.id, { method: 'totp' }));
      return true;
    });
    if (!confirmed) throw AppError.badRequest([ErrorText.invalidCode]);
    return { recoveryCodes: minted.map((entry) => entry.code) };
  }

  /** The app goes; the recovery codes go with it when no passkey is left for them to stand in for. */
  async remove(ctx: RequestContext): Promise<void> {
    const user = userOf(ctx);
    await this.transactions.run(async (tx) => {
      if (!(await this.apps.remove(tx, user.id))) throw AppError.notFound();
      if (!(await this.held.methodsOf(user.id, tx)).passkey) await this.codes.removeAll(tx, user.id);
      await this.journal.recordWith(tx, ctx, accountEvent('second_factor_disabled', user.id, { method: 'totp' }));
    });
  }

  async regenerateRecoveryCodes(ctx: RequestContext): Promise<{ recoveryCodes: string[] }> {
    const user = userOf(ctx);
    const minted = mintRecoveryCodes();
    await this.transactions.run(async (tx) => {
      const held = await this.held.methodsOf(user.id, tx);
      if (!held.totp && !held.passkey) throw AppError.conflict(ErrorText.setUpSecondFactorFirst);
      await this.codes.replace(
        tx,
        user.id,
        minted.map((entry) => entry.hash),
      );
      await this.journal.recordWith(tx, ctx, accountEvent('recovery_codes_regenerated', user.id));
    });
    return { recoveryCodes: minted.map((entry) => entry.code) };
  }

  /** A code of the confirmed app, for a time step not used before. */
  async verifyCode(userId: number, code: string): Promise<boolean> {
    const app = await this.apps.find(userId);
    if (!app?.confirmed) return false;
    const step = stepOfCode(this.box.open(app.secret_sealed), code);
    return step !== null && (await this.apps.useStep(userId, step, app.secret_sealed));
  }

  async useRecoveryCode(userId: number, typed: string): Promise<boolean> {
    const hash = recoveryCodeHash(typed);
    return hash !== null && (await this.codes.use(userId, hash));
  }
}
