import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, type ThrottlerLimitDetail } from '@nestjs/throttler';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';

/**
 * Per-key limits (integration keys and site keys), after authentication so the key is known.
 * One counter per key and window across every route and, with REDIS_URL, every instance.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${tracker}:${throttlerName}`;
  }

  protected override async throwThrottlingException(_context: ExecutionContext, detail: ThrottlerLimitDetail): Promise<void> {
    throw new AppError(429, ErrorText.tooManyRequests, undefined, {
      'Retry-After': String(Math.max(1, Math.ceil(detail.timeToBlockExpire))),
    });
  }
}
