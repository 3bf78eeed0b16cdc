import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { JwtService } from '@nestjs/jwt';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BrandDirectory } from '../common/context/brand-directory';
import type { Environment } from '../config/environment';
import { AdminBrandsController } from './admin-brands.controller';
import { AdminUsersController } from './admin-users.controller';
import { AccountController } from './account.controller';
import { AccountService } from './account.service';
import { AuthController } from './auth.controller';
import { OutboxModule } from '../outbox/outbox.module';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { PasswordResetsRepository } from './password-resets.repository';
import { PasswordsService } from './passwords.service';
import { AuthService } from './auth.service';
import { BootstrapAdmin } from './bootstrap-admin';
import { BrandsRepository } from './brands.repository';
import { BrandsService } from './brands.service';
import { BrandEntity } from './entities/brand.entity';
import { InvitationEntity } from './entities/invitation.entity';
import { PasswordResetEntity } from './entities/password-reset.entity';
import { LoginFailureEntity } from './entities/login-failure.entity';
import { MembershipEntity } from './entities/membership.entity';
import { SessionEntity } from './entities/session.entity';
import { UserEntity } from './entities/user.entity';
import { LoginFailuresRepository } from './login-failures.repository';
import { LoginThrottle } from './login-throttle.service';
import { MembershipsRepository } from './memberships.repository';
import { MembershipsService } from './memberships.service';
import { PasswordHasher } from './password-hasher';
import { SessionCredentialResolver } from './session-credential.resolver';
import { loadSessionSecret, SessionSecret } from './session-secret';
import { SessionsRepository } from './sessions.repository';
import { SessionsService } from './sessions.service';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { InvitationAcceptanceController } from './invitation-acceptance.controller';
import { InvitationMail } from './invitation-mail';
import { InvitationsRepository } from './invitations.repository';
import { InvitationsService } from './invitations.service';
import { RequestSession } from './request-session';
import { TeamController } from './team.controller';
import { SecurityJournalModule } from '../security-journal/security-journal.module';
import { SecretsModule } from '../common/secrets/secrets.module';
import { AuthenticatorAppService } from './authenticator-app.service';
import { LoginChallengeEntity } from './entities/login-challenge.entity';
import { PasskeyEntity } from './entities/passkey.entity';
import { RecoveryCodeEntity } from './entities/recovery-code.entity';
import { SessionPasskeyChallengeEntity } from './entities/session-passkey-challenge.entity';
import { TotpAuthenticatorEntity } from './entities/totp-authenticator.entity';
import { LoginChallengesRepository } from './login-challenges.repository';
import { LoginChallengesService } from './login-challenges.service';
import { PasskeysController } from './passkeys.controller';
import { PasskeysRepository } from './passkeys.repository';
import { PasskeysService } from './passkeys.service';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { RelyingParty } from './relying-party';
import { SecondFactorController } from './second-factor.controller';
import { SecondFactorService } from './second-factor.service';
import { SecondFactorsRepository } from './second-factors.repository';
import { SecurityPolicyController } from './security-policy.controller';
import { SecurityPolicyService } from './security-policy.service';
import { TotpAuthenticatorsRepository } from './totp-authenticators.repository';

/**
 * Users, brands, memberships, sessions and the second factor; plugs the session credential into
 * the guard chain.
 */
@Module({
  imports: [
    IdempotencyModule,
    SecurityJournalModule,
    OutboxModule,
    RateLimitModule,
    SecretsModule,
    TypeOrmModule.forFeature([
      UserEntity,
      BrandEntity,
      MembershipEntity,
      SessionEntity,
      LoginFailureEntity,
      InvitationEntity,
      PasswordResetEntity,
      TotpAuthenticatorEntity,
      RecoveryCodeEntity,
      PasskeyEntity,
      LoginChallengeEntity,
      SessionPasskeyChallengeEntity,
    ]),
  ],
  controllers: [
    AuthController,
    AccountController,
    AdminUsersController,
    AdminBrandsController,
    TeamController,
    InvitationAcceptanceController,
    SecondFactorController,
    PasskeysController,
    SecurityPolicyController,
  ],
  providers: [
    {
      provide: SessionSecret,
      inject: [ConfigService],
      useFactory: async (config: ConfigService<Environment, true>) =>
        new SessionSecret(
          await loadSessionSecret(
            config.get('SESSION_SECRET', { infer: true }),
            config.get('DATA_DIR', { infer: true }),
          ),
        ),
    },
    {
      provide: JwtService,
      inject: [SessionSecret],
      useFactory: (secret: SessionSecret) =>
        new JwtService({ secret: secret.value, signOptions: { algorithm: 'HS256' } }),
    },
    AuthService,
    AccountService,
    BootstrapAdmin,
    BrandsRepository,
    BrandsService,
    { provide: BrandDirectory, useExisting: BrandsService },
    LoginFailuresRepository,
    LoginThrottle,
    MembershipsRepository,
    MembershipsService,
    PasswordHasher,
    PasswordResetsRepository,
    PasswordsService,
    SessionCredentialResolver,
    SessionsRepository,
    SessionsService,
    UsersRepository,
    UsersService,
    InvitationMail,
    InvitationsRepository,
    InvitationsService,
    RequestSession,
    AuthenticatorAppService,
    LoginChallengesRepository,
    LoginChallengesService,
    PasskeysRepository,
    PasskeysService,
    RecoveryCodesRepository,
    RelyingParty,
    SecondFactorService,
    SecondFactorsRepository,
    SecurityPolicyService,
    TotpAuthenticatorsRepository,
  ],
  exports: [BrandDirectory, BrandsService, UsersService, PasswordsService, InvitationMail],
})
export class IdentityModule {}
