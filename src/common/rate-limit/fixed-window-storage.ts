import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

/** What the throttler's storages answer for one hit. */
export type WindowCount = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  endsAt: number;
}

/**
 * In-process counters for when there is no Redis: a fixed window per key, O(1) per request.
 * (The throttler's own memory store keeps every hit's time and filters them on each request,
 * which costs O(rate) per request for a busy key.)
 */
export class FixedWindowStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(sweepEveryMs = 60_000) {
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number): Promise<WindowCount> {
    return this.count(key, ttl, limit);
  }

  /** `increment` without the promise: the rate-limit guard counts in the request's own turn. */
  count(key: string, ttl: number, limit: number): WindowCount {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { hits: 0, endsAt: now + ttl };
      this.windows.set(key, window);
    }
    window.hits += 1;
    const secondsLeft = Math.max(1, Math.ceil((window.endsAt - now) / 1000));
    const isBlocked = window.hits > limit;
    return {
      totalHits: window.hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
  }
}
