import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isUniqueViolation } from '../common/errors/pg-errors';
import { UserEntity } from './entities/user.entity';
import { PasswordHasher } from './password-hasher';

export interface UserView {
  id: number;
  email: string;
  isSuperadmin: boolean;
  active: boolean;
  createdAt: string;
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

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
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly hasher: PasswordHasher,
  ) {}

  async create(input: { email: string; password: string; isSuperadmin?: boolean }): Promise<UserView> {
    const passwordHash = await this.hasher.hash(input.password);
    try {
      const user = await this.users.save(
        this.users.create({
          email: normalizeEmail(input.email),
          passwordHash,
          isSuperadmin: input.isSuperadmin ?? false,
        }),
      );
      return toUserView(user);
    } catch (error) {
      if (isUniqueViolation(error, 'uq_users_email')) throw AppError.conflict(ErrorText.emailTaken);
      throw error;
    }
  }

  /** Creates the superadministrator unless the e-mail exists; safe when instances start together. */
  async ensureSuperadmin(email: string, password: string): Promise<boolean> {
    const passwordHash = await this.hasher.hash(password);
    const inserted: unknown[] = await this.db.query(
      `INSERT INTO users (email, password_hash, is_superadmin) VALUES ($1, $2, true)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [normalizeEmail(email), passwordHash],
    );
    return inserted.length > 0;
  }

  async list(): Promise<UserView[]> {
    return (await this.users.find({ order: { id: 'ASC' } })).map(toUserView);
  }

  async findForLogin(email: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { email: normalizeEmail(email), active: true } });
  }

  /**
   * Changes rights or switches an account off. The platform keeps at least one active
   * superadministrator: the check and the change happen under a lock on those rows.
   */
  async update(userId: number, change: { isSuperadmin?: boolean; active?: boolean }): Promise<UserView> {
    return this.db.transaction(async (tx) => {
      const repo = tx.getRepository(UserEntity);
      const admins = await repo
        .createQueryBuilder('u')
        .setLock('pessimistic_write')
        .where('u.is_superadmin AND u.active')
        .orderBy('u.id')
        .getMany();
      const user = await repo.findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw AppError.notFound();
      const next = { ...user, ...definedOnly(change) };
      const losesAdmin = user.isSuperadmin && user.active && !(next.isSuperadmin && next.active);
      if (losesAdmin && admins.length <= 1) {
        throw AppError.conflict(ErrorText.lastSuperadmin);
      }
      await repo.update({ id: userId }, { isSuperadmin: next.isSuperadmin, active: next.active });
      return toUserView({ ...user, isSuperadmin: next.isSuperadmin, active: next.active });
    });
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
