import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
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
   * on every request, then its handleRequest awaits the tracker and the counter per window. Limits
   * here are per key, never per route (no @Throttle or @SkipThrottle), and no X-RateLimit headers
   * are sent, so the module's windows are counted directly: the tracker once, one counter call per
   * window (a tenth of site_me's time otherwise, docs/performance.md).
   */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const { skipIf, getTracker } = this.commonOptions;
    if (skipIf?.(context)) return true;
    const tracker = await getTracker!(context.switchToHttp().getRequest(), context);
    for (const throttler of this.throttlers) {
      const ttl = throttler.ttl as number;
      const window = await this.storageService.increment(
        `${tracker}:${throttler.name}`,
        ttl,
        throttler.limit as number,
        ttl,
        throttler.name!,
      );
      // 429 when the window is full, before the next window counts the request.
      if (window.isBlocked) throw AppError.tooManyRequests(ErrorText.tooManyRequests, window.timeToBlockExpire);
    }
    return true;
  }
}
