import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Environment } from '../../config/environment';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/**
 * A limit per client address for routes anyone may call that cost something real (a mail sent):
 * counted in the key limiter's storage, so in Redis across instances when REDIS_URL is set.
 */
@Injectable()
export class AddressThrottle {
  private readonly prefix: string;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    config: ConfigService<Environment, true>,
  ) {
    this.prefix = config.get('RATE_LIMIT_KEY_PREFIX', { infer: true });
  }

  /** Counts one request of `name` from `ip`; past `limit` in the window, 429 with Retry-After. */
  async take(name: string, ip: string, limit: number, windowMs: number): Promise<void> {
    const count = await this.storage.increment(`${this.prefix}:addr:${name}:${ip}`, windowMs, limit, 0, name);
    if (count.totalHits > limit) {
      throw AppError.tooManyRequests(ErrorText.tooManyRequests, Math.max(1, count.timeToExpire));
    }
  }
}
