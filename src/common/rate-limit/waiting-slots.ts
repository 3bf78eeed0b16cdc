import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import { randomUUID } from 'node:crypto';
import type { Environment } from '../../config/environment';

/** How many requests one key may have waiting at once (contract §20). */
export const WAITING_PER_KEY = 10;

/** The longest a request waits (contract §20's `waitSeconds`), and so the longest a slot is held. */
export const LONGEST_WAIT_SECONDS = 30;

/** A slot taken: give it back once the request stops waiting. */
export type WaitingSlot = { release: () => void };

/**
 * Slots for requests that wait (the events API's long polls): at most WAITING_PER_KEY per key,
 * counted where the key's rate limit is, so in Redis across instances when REDIS_URL is set. In
 * Redis each slot is a member of the key's sorted set scored by when it lapses, so the slots of an
 * instance that died are freed when their wait would have ended. Should Redis not answer, this
 * instance counts alone rather than refuse every wait.
 */
@Injectable()
export class WaitingSlots {
  private readonly logger = new Logger('WaitingSlots');
  private readonly local = new Map<string, number>();
  private readonly prefix: string;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    config: ConfigService<Environment, true>,
  ) {
    this.prefix = config.get('RATE_LIMIT_KEY_PREFIX', { infer: true });
  }

  /** A slot for `key` held at most `seconds`, or null when the key has every one taken. */
  async take(key: string, seconds: number): Promise<WaitingSlot | null> {
    if (this.storage instanceof ThrottlerStorageRedisService) {
      const set = `${this.prefix}:waiting:${key}`;
      const member = randomUUID();
      try {
        return await this.takeShared(this.storage, set, member, seconds);
      } catch (error) {
        // The slot may have been added before Redis failed to answer: it must not hold a place.
        void this.storage.redis.zrem(set, member).catch(() => undefined);
        this.logger.warn(`waiting slots counted on this instance alone: ${(error as Error).message}`);
      }
    }
    return this.takeLocal(key);
  }

  private async takeShared(
    storage: ThrottlerStorageRedisService,
    set: string,
    member: string,
    seconds: number,
  ): Promise<WaitingSlot | null> {
    const now = Date.now();
    // A slot lapses a little after its wait would end: the answer is written by then.
    const lapses = now + (seconds + 5) * 1000;
    const replies = await storage.redis
      .multi()
      .zremrangebyscore(set, '-inf', now)
      .zadd(set, lapses, member)
      .zcard(set)
      // The set outlives its longest slot, whichever request set this.
      .pexpire(set, (LONGEST_WAIT_SECONDS + 5) * 1000)
      .exec();
    const held = Number(replies?.[2]?.[1] ?? 0);
    const release = () => void storage.redis.zrem(set, member).catch(() => undefined);
    if (held > WAITING_PER_KEY) {
      release();
      return null;
    }
    return { release };
  }

  private takeLocal(key: string): WaitingSlot | null {
    const held = this.local.get(key) ?? 0;
    if (held >= WAITING_PER_KEY) return null;
    this.local.set(key, held + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.local.get(key) ?? 1) - 1;
        if (left > 0) this.local.set(key, left);
        else this.local.delete(key);
      },
    };
  }
}
