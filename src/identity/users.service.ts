import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isUniqueViolation } from '../common/errors/pg-errors';
import { Transactions, type Tx } from '../database/transactions';
import { assertPasswordAllowed } from './password-policy';
import type { UserEntity } from './entities/user.entity';
import { MembershipsService } from './memberships.service';
import { PasswordHasher } from './password-hasher';
import { UsersRepository } from './users.repository';
import { normalizeEmail } from '../common/validation/email';

export interface UserView {
  id: number;
  email: string;
  isSuperadmin: boolean;
  active: boolean;
  createdAt: string;
}

export const toUserView = (user: UserEntity): UserView => ({
  id: user.id,
  email: user.email,
  isSuperadmin: user.isSuperadmin,
  active: user.active,
  createdAt: user.createdAt.toISOString(),
});

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly transactions: Transactions,
    private readonly hasher: PasswordHasher,
    private readonly memberships: MembershipsService,
  ) {}

  /** A new account; its password must pass the policy (contract §19). */
  async create(input: { email: string; password: string; isSuperadmin?: boolean }): Promise<UserView> {
    const email = normalizeEmail(input.email);
    assertPasswordAllowed(input.password, email);
    const passwordHash = await this.hasher.hash(input.password);
    try {
      const user = await this.users.insert({
        email,
        passwordHash,
        isSuperadmin: input.isSuperadmin ?? false,
      });
      return toUserView(user);
    } catch (error) {
      if (isUniqueViolation(error, 'uq_users_email')) throw AppError.conflict(ErrorText.emailTaken);
      throw error;
    }
  }

  /** Creates the superadministrator unless the e-mail exists; safe when instances start together. */
  async ensureSuperadmin(email: string, password: string): Promise<boolean> {
    const passwordHash = await this.hasher.hash(password);
    return this.users.insertSuperadminUnlessTaken(normalizeEmail(email), passwordHash);
  }

  async list(): Promise<UserView[]> {
    return (await this.users.all()).map(toUserView);
  }

  noteSignIn(userId: number): Promise<void> {
    return this.users.noteSignIn(userId);
  }

  /** Hashes and stores a password the policy has let through, in the caller's transaction. */
  async setPassword(tx: Tx, userId: number, password: string): Promise<void> {
    await this.users.setPasswordHash(tx, userId, await this.hasher.hash(password));
  }

  /** An active account by id: the second step of a sign-in names its account so. */
  findActive(userId: number): Promise<UserEntity | null> {
    return this.users.findActiveById(userId);
  }

  async findForLogin(email: string): Promise<UserEntity | null> {
    return this.users.findActiveByEmail(normalizeEmail(email));
  }

  /**
   * Changes rights or switches an account off. The platform keeps at least one active
   * superadministrator, and each brand its last active settings.manage member (contract §19): the
   * checks and the change happen under locks on those rows, the brands' managers first.
   */
  async update(userId: number, change: { isSuperadmin?: boolean; active?: boolean }): Promise<UserView> {
    return this.transactions.run(async (tx) => {
      if (change.active === false) await this.memberships.assertNotLastManager(tx, userId);
      const admins = await this.users.lockActiveSuperadmins(tx);
      const user = await this.users.lockById(tx, userId);
      if (!user) throw AppError.notFound();
      const next = { ...user, ...definedOnly(change) };
      const losesAdmin = user.isSuperadmin && user.active && !(next.isSuperadmin && next.active);
      if (losesAdmin && admins.length <= 1) {
        throw AppError.conflict(ErrorText.lastSuperadmin);
      }
      await this.users.setFlags(tx, userId, { isSuperadmin: next.isSuperadmin, active: next.active });
      return toUserView({ ...user, isSuperadmin: next.isSuperadmin, active: next.active });
    });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
