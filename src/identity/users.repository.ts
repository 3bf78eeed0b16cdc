import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Tx } from '../database/transactions';
import { UserEntity } from './entities/user.entity';

/** The users table. E-mails arrive normalized. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  insert(user: { email: string; passwordHash: string; isSuperadmin: boolean }): Promise<UserEntity> {
    return this.users.save(this.users.create(user));
  }

  /** Safe when instances start together: true when this call created the account. */
  async insertSuperadminUnlessTaken(email: string, passwordHash: string): Promise<boolean> {
    const inserted: unknown[] = await this.users.query(
      `INSERT INTO users (email, password_hash, is_superadmin) VALUES ($1, $2, true)
       ON CONFLICT (email) DO NOTHING RETURNING id`,
      [email, passwordHash],
    );
    return inserted.length > 0;
  }

  all(): Promise<UserEntity[]> {
    return this.users.find({ order: { id: 'ASC' } });
  }

  findActiveById(id: number): Promise<UserEntity | null> {
    return this.users.findOneBy({ id, active: true });
  }

  findActiveByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findOne({ where: { email, active: true } });
  }

  /** The active superadministrators, locked in id order (so concurrent changes queue, never deadlock). */
  lockActiveSuperadmins(tx: Tx): Promise<UserEntity[]> {
    return tx
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.is_superadmin AND u.active')
      .orderBy('u.id')
      .getMany();
  }

  /** An active account by e-mail, locked until the transaction ends. */
  lockActiveByEmail(tx: Tx, email: string): Promise<UserEntity | null> {
    return tx
      .getRepository(UserEntity)
      .findOne({ where: { email, active: true }, lock: { mode: 'pessimistic_write' } });
  }

  lockById(tx: Tx, userId: number): Promise<UserEntity | null> {
    return tx.getRepository(UserEntity).findOne({ where: { id: userId }, lock: { mode: 'pessimistic_write' } });
  }

  async noteSignIn(userId: number): Promise<void> {
    await this.users.query('UPDATE users SET last_sign_in_at = now() WHERE id = $1', [userId]);
  }

  async setPasswordHash(tx: Tx, userId: number, passwordHash: string): Promise<void> {
    await tx.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, passwordHash]);
  }

  async setFlags(tx: Tx, userId: number, flags: { isSuperadmin: boolean; active: boolean }): Promise<void> {
    await tx.getRepository(UserEntity).update({ id: userId }, flags);
  }
}
