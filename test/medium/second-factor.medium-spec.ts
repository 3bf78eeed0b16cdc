import type { RequestContext } from '../../src/common/context/request-context';
import { AppError } from '../../src/common/errors/app-error';
import { SecretBox } from '../../src/common/secrets/secret-box';
import { AuthService } from '../../src/identity/auth.service';
import { AuthenticatorAppService } from '../../src/identity/authenticator-app.service';
import { IdentityModule } from '../../src/identity/identity.module';
import { PasskeysRepository } from '../../src/identity/passkeys.repository';
import { UserPrincipal } from '../../src/identity/user-principal';
import { UsersService } from '../../src/identity/users.service';
import { openMedium, type MediumSuite } from '../support/medium';
import { mediumLogin } from '../support/medium-fixtures';
import { base32Bytes, totpCode } from '../support/totp-code';

const PASSWORD = 'medium-password-1';
const CLIENT = { ip: '127.0.0.1', userAgent: 'medium-test' };

const outcomeOf = (work: Promise<unknown>) =>
  work.then(
    () => 'done',
    (error: unknown) => {
      if (error instanceof AppError) return `${error.status} ${error.message}`;
      throw error;
    },
  );

/**
 * The second factor's invariants with its real tables (contract §19), several requests at once:
 * a code, a recovery code, a passkey's counter and a sign-in's challenge each work once, however
 * many requests race for them; the secret is sealed at rest.
 */
describe('the second factor, at once', () => {
  let suite: MediumSuite;
  let n = 0;

  beforeAll(async () => {
    suite = await openMedium([IdentityModule]);
  });
  afterAll(() => suite?.close());

  const request = (principal: UserPrincipal | null, path: string): RequestContext => ({
    requestId: 'medium',
    ip: '127.0.0.1',
    method: 'POST',
    path,
    principal,
    brandId: null,
  });
  /** An account signed in once, as its session's principal, holding a confirmed authenticator app. */
  const enrolled = async () => {
    const email = `second-factor-${++n}-${Date.now()}@example.com`;
    const user = await suite.get(UsersService).create({ email, password: PASSWORD });
    await mediumLogin(suite, email, PASSWORD);
    const [{ id: sessionId }] = await suite.dataSource.query(`SELECT id FROM sessions WHERE user_id = $1`, [user.id]);
    const principal = new UserPrincipal(user.id, email, false, sessionId, [], new Date());
    const app = suite.get(AuthenticatorAppService);
    const { secret } = await app.enrol(request(principal, '/auth/second-factor/totp'));
    const key = base32Bytes(secret);
    const confirmedAt = Date.now();
    const { recoveryCodes } = await app.confirm(
      request(principal, '/auth/second-factor/totp/confirm'),
      totpCode(key, confirmedAt),
    );
    return { user, email, secret, key, confirmedAt, recoveryCodes };
  };

  it('takes one code once, though five requests send it together', async () => {
    const { user, key, confirmedAt } = await enrolled();
    const code = totpCode(key, confirmedAt + 30_000);
    const app = suite.get(AuthenticatorAppService);
    const results = await Promise.all(Array.from({ length: 5 }, () => app.verifyCode(user.id, code)));
    expect(results.filter(Boolean)).toHaveLength(1);
    // An older step than the one taken is spent as well.
    expect(await app.verifyCode(user.id, totpCode(key, confirmedAt))).toBe(false);
  });

  it('takes one recovery code once, though five requests send it together', async () => {
    const { user, recoveryCodes } = await enrolled();
    const app = suite.get(AuthenticatorAppService);
    const results = await Promise.all(Array.from({ length: 5 }, () => app.useRecoveryCode(user.id, recoveryCodes[0])));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await app.useRecoveryCode(user.id, recoveryCodes[1])).toBe(true);
  });

  it('opens one session for a challenge, though two right answers arrive together', async () => {
    const { email, key, confirmedAt, recoveryCodes } = await enrolled();
    const auth = suite.get(AuthService);
    const step = await auth.login(request(null, '/auth/login'), email, PASSWORD, CLIENT);
    if (!('challengeToken' in step)) throw new Error('expected a second step');
    const outcomes = await Promise.all([
      outcomeOf(
        auth.completeSecondStep(
          request(null, '/auth/login/second-factor'),
          step.challengeToken,
          { kind: 'code', code: totpCode(key, confirmedAt + 30_000) },
          CLIENT,
        ),
      ),
      outcomeOf(
        auth.completeSecondStep(
          request(null, '/auth/login/second-factor'),
          step.challengeToken,
          { kind: 'recoveryCode', recoveryCode: recoveryCodes[0] },
          CLIENT,
        ),
      ),
    ]);
    expect(outcomes.sort()).toEqual(['401 Unauthorized', 'done']);
  });

  it('takes no more than five wrong answers of a challenge, though eight arrive together', async () => {
    const { email, key, confirmedAt } = await enrolled();
    const auth = suite.get(AuthService);
    const step = await auth.login(request(null, '/auth/login'), email, PASSWORD, CLIENT);
    if (!('challengeToken' in step)) throw new Error('expected a second step');
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () =>
        outcomeOf(
          auth.completeSecondStep(
            request(null, '/auth/login/second-factor'),
            step.challengeToken,
            { kind: 'recoveryCode', recoveryCode: 'aaaa-bbbb-cccc-dddd' },
            CLIENT,
          ),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === '401 Invalid code')).toHaveLength(5);
    expect(outcomes.filter((outcome) => outcome === '401 Unauthorized')).toHaveLength(3);
    const right = auth.completeSecondStep(
      request(null, '/auth/login/second-factor'),
      step.challengeToken,
      { kind: 'code', code: totpCode(key, confirmedAt + 30_000) },
      CLIENT,
    );
    expect(await outcomeOf(right)).toBe('401 Unauthorized');
  });

  it("moves a passkey's counter on once for one assertion, and never back", async () => {
    const { user } = await enrolled();
    const passkeys = suite.get(PasskeysRepository);
    const row = await passkeys.insert(suite.dataSource.manager, {
      userId: user.id,
      name: 'Key',
      credentialId: `credential-${user.id}`,
      publicKey: Buffer.from([1, 2, 3]),
      counter: 4,
      transports: ['internal'],
    });
    const results = await Promise.all(Array.from({ length: 5 }, () => passkeys.noteUse(row!.id, 5)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await passkeys.noteUse(row!.id, 3)).toBe(false);
    expect(await passkeys.noteUse(row!.id, 6)).toBe(true);
  });

  it('keeps the authenticator secret sealed: the row opens to it only with the key', async () => {
    const { user, secret } = await enrolled();
    const [row] = await suite.dataSource.query(`SELECT secret_sealed FROM totp_authenticators WHERE user_id = $1`, [
      user.id,
    ]);
    const sealed = row.secret_sealed as Buffer;
    expect(sealed.toString('latin1')).not.toContain(secret);
    expect(suite.get(SecretBox).open(sealed)).toBe(secret);
  });
});
