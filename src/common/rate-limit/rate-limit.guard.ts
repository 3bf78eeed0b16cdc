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
  /** The start of its `RateLimit` field, made once. */
  readonly field: string;
}

/**
 * What the guard writes on an answer: Fastify's reply, whose own header list it serializes at
 * once (a header set on its Node response beneath is merged at writeHead, at a cost measured on
 * every key request), or Express's Node response.
 */
type Answer =
  { raw: object; header(name: string, value: string): unknown } | { setHeader(name: string, value: string): unknown };

/**
 * Per-key limits (integration keys and site keys), after authentication so the key is known.
 * One counter per key and window across every route and, with REDIS_URL, every instance.
 *
 * The windows, the tracker and the storage are the throttler module's (rate-limit.module.ts).
 * Its own ThrottlerGuard reads five route decorators per window and awaits each value on every
 * request, then awaits the tracker and the counter per window. Limits here are per key, never per
 * route (no @Throttle or @SkipThrottle), so the windows are counted directly: the tracker once,
 * one counter call per window (docs/performance.md, PERF-6). Counted in memory, that takes no
 * promise at all, so Nest goes on to the next guard in the same turn.
 *
 * Every counted answer, a 429 too, carries contract §20's `RateLimit-Policy` (the windows, fixed
 * at start) and `RateLimit` (the window with the fewest requests left, and when they are back:
 * draft-ietf-httpapi-ratelimit-headers-10, written as RFC 9651 structured fields).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly windows: readonly Window[];
  private readonly skipIf: (context: ExecutionContext) => boolean;
  private readonly trackerOf: NonNullable<ThrottlerModuleOptionsObject['getTracker']>;
  private readonly policy: string;

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
        return { name: name ?? 'default', ttl, limit, field: `"${name ?? 'default'}";r=` };
      })
      .sort((a, b) => a.ttl - b.ttl);
    this.policy = this.windows.map((w) => `"${w.name}";q=${w.limit};w=${Math.ceil(w.ttl / 1000)}`).join(', ');
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (this.skipIf(context)) return true;
    const tracker = this.trackerOf(requestOf(context), context);
    const answer = context.switchToHttp().getResponse<Answer | undefined>();
    if (typeof tracker !== 'string') return tracker.then((known) => this.countShared(known, answer));
    if (!(this.storage instanceof FixedWindowStorage)) return this.countShared(tracker, answer);
    let closest = '';
    let least = Infinity;
    for (const window of this.windows) {
      const counted = this.storage.count(`${tracker}:${window.name}`, window.ttl, window.limit);
      const left = window.limit - counted.totalHits;
      if (left < least) [least, closest] = [left, fieldOf(window, left, counted)];
      if (counted.isBlocked) this.refuse(answer, closest, counted);
    }
    this.write(answer, closest);
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
  private async countShared(tracker: string, answer: Answer | undefined): Promise<boolean> {
    let closest = '';
    let least = Infinity;
    for (const window of this.windows) {
      const counted = await this.storage.increment(
        `${tracker}:${window.name}`,
        window.ttl,
        window.limit,
        window.ttl,
        window.name,
      );
      const left = window.limit - counted.totalHits;
      if (left < least) [least, closest] = [left, fieldOf(window, left, counted)];
      if (counted.isBlocked) this.refuse(answer, closest, counted);
    }
    this.write(answer, closest);
    return true;
  }

  // 429 when the window is full, before a longer window counts the request; the fields go with it.
  private refuse(answer: Answer | undefined, closest: string, window: WindowCount): never {
    this.write(answer, closest);
    this.refusals.refused();
    throw AppError.tooManyRequests(ErrorText.tooManyRequests, window.timeToBlockExpire);
  }

  // A refusal counted before the guard (countBeforeRefusal) has no answer at hand.
  private write(answer: Answer | undefined, closest: string): void {
    if (!answer) return;
    if ('raw' in answer) {
      answer.header('RateLimit-Policy', this.policy);
      answer.header('RateLimit', closest);
    } else {
      answer.setHeader('RateLimit-Policy', this.policy);
      answer.setHeader('RateLimit', closest);
    }
  }
}

/** A window's `RateLimit` field: the requests left in it (none past the limit), and when they are back. */
function fieldOf(window: Window, left: number, counted: WindowCount): string {
  const back = counted.timeToBlockExpire > counted.timeToExpire ? counted.timeToBlockExpire : counted.timeToExpire;
  return `${window.field}${left > 0 ? left : 0};t=${back}`;
}
