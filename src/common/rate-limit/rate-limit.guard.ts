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
  /**
   * The library's canActivate reads five route decorators per named window and awaits each value
   * on every request. Limits here are per key, never per route (no @Throttle or @SkipThrottle),
   * so the module's windows are counted directly: a tenth of a key-checked read's allocations less.
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const { skipIf, getTracker, generateKey } = this.commonOptions;
    if (skipIf?.(context)) return true;
    for (const throttler of this.throttlers) {
      const ttl = throttler.ttl as number;
      // Throws 429 when the window is full, before the next window counts the request.
      await this.handleRequest({
        context,
        limit: throttler.limit as number,
        ttl,
        blockDuration: ttl,
        throttler,
        getTracker: getTracker!,
        generateKey: generateKey!,
      });
    }
    return true;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${tracker}:${throttlerName}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw AppError.tooManyRequests(ErrorText.tooManyRequests, detail.timeToBlockExpire);
  }
}
