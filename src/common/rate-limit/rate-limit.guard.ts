import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  type ThrottlerModuleOptions,
  type ThrottlerOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { AppError } from '../errors/app-error';
import { ErrorText } from '../errors/error-texts';
import { requestOf } from '../context/context-of';
import type { HttpRequest } from '../context/http-types';
import { FixedWindowStorage, type WindowCount } from './fixed-window-storage';
import { RateLimitRefusals } from './rate-limit-refusals';

type ThrottlerModuleOptionsObject = Exclude<ThrottlerModuleOptions, unknown[]>;

interface Window {
  readonly name: string;
  readonly ttl: number;
  readonly limit: number;
}

/**
 * Per-key limits (integration keys and site keys), after authentication so the key is known.
 * One counter per key and window across every route and, with REDIS_URL, every instance.
 *
 * The windows, the tracker and the storage are the throttler module's (rate-limit.module.ts).
 * Its own ThrottlerGuard reads five route decorators per window and awaits each value on every
 * request, then awaits the tracker and the counter per window. Limits here are per key, never per
 * route (no @Throttle or @SkipThrottle), and no X-RateLimit headers are sent, so the windows are
 * counted directly: the tracker once, one counter call per window (docs/performance.md, PERF-6).
 * Counted in memory, that takes no promise at all, so Nest goes on to the next guard in the same
 * turn.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows: readonly Window[];
  private readonly skipIf: (context: ExecutionContext) => boolean;
  private readonly trackerOf: NonNullable<ThrottlerModuleOptionsObject['getTracker']>;

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly refusals: RateLimitRefusals,
  ) {
    if (Array.isArray(options) || !options.getTracker) throw new Error("rate limits need the module's tracker");
    this.skipIf = options.skipIf ?? (() => false);
    this.trackerOf = options.getTracker;
    // Shortest first, as the library counts them: a full burst window refuses before the
    // sustained one counts the request.
    this.windows = options.throttlers
      .map(({ name, ttl, limit }: ThrottlerOptions) => {
        if (typeof ttl !== 'number' || typeof limit !== 'number')
          throw new Error('rate-limit windows are fixed numbers');
        return { name: name ?? 'default', ttl, limit };
      })
      .sort((a, b) => a.ttl - b.ttl);
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.skipIf(context)) return true;
    const tracker = this.trackerOf(requestOf(context), context);
    if (typeof tracker !== 'string') return tracker.then((known) => this.countShared(known));
    if (!(this.storage instanceof FixedWindowStorage)) return this.countShared(tracker);
    for (const window of this.windows)
      this.admit(this.storage.count(`${tracker}:${window.name}`, window.ttl, window.limit));
    return true;
  }

  /**
   * For a refusal decided before this guard runs (a key used from an address it is not allowed
   * at): the request counts against its key's limit like any other, and past the limit it is
   * refused with 429 here, so a sender repeating it grows nothing faster than its rate allows.
   */
  async countBeforeRefusal(request: HttpRequest): Promise<void> {
    await this.canActivate(new ExecutionContextHost([request]));
  }

  /** Redis: one round trip per window. */
  private async countShared(tracker: string): Promise<boolean> {
    for (const { name, ttl, limit } of this.windows) {
      this.admit(await this.storage.increment(`${tracker}:${name}`, ttl, limit, ttl, name));
    }
    return true;
  }

  // 429 when the window is full, before a longer window counts the request.
  private admit(window: WindowCount): void {
    if (!window.isBlocked) return;
    this.refusals.refused();
    throw AppError.tooManyRequests(ErrorText.tooManyRequests, window.timeToBlockExpire);
  }
}
