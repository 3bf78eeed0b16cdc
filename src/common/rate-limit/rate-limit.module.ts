import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Environment } from '../../config/environment';
import { contextOf, requestOf } from '../context/context-of';
import { AddressThrottle } from './address-throttle';
import { FixedWindowStorage } from './fixed-window-storage';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitRefusals } from './rate-limit-refusals';
import { WaitingSlots } from './waiting-slots';

const LIMITED_KINDS = new Set(['integration_key', 'site_key']);

/**
 * A key may make RATE_LIMIT_PER_SECOND requests a second on average with bursts to
 * RATE_LIMIT_BURST: at most BURST in any second and PER_SECOND × 10 in any ten seconds.
 * Counters live in Redis when REDIS_URL is set (shared by instances), in memory otherwise.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [ConfigService],
      useFactory: (config: ConfigService<Environment, true>) => {
        const redisUrl = config.get('REDIS_URL', { infer: true });
        const prefix = config.get('RATE_LIMIT_KEY_PREFIX', { infer: true });
        const perSecond = config.get('RATE_LIMIT_PER_SECOND', { infer: true });
        return {
          throttlers: [
            { name: 'burst', ttl: 1000, limit: config.get('RATE_LIMIT_BURST', { infer: true }) },
            { name: 'window', ttl: 10_000, limit: perSecond * 10 },
          ],
          // The guard writes contract §20's two structured fields itself; the library's six
          // X-RateLimit-* headers a window are not sent.
          setHeaders: false,
          storage: redisUrl
            ? new ThrottlerStorageRedisService(redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false })
            : new FixedWindowStorage(),
          skipIf: (context) => !LIMITED_KINDS.has(contextOf(requestOf(context)).principal?.kind ?? ''),
          getTracker: (_req, context) => {
            const principal = contextOf(requestOf(context)).principal!;
            return `${prefix}:rl:${principal.kind}:${principal.rateLimitKey ?? principal.id}`;
          },
        };
      },
    }),
  ],
  // The guard is also a provider: a refusal decided before it runs (an address not allowed) counts through it.
  providers: [RateLimitRefusals, RateLimitGuard, AddressThrottle, WaitingSlots],
  exports: [RateLimitRefusals, RateLimitGuard, AddressThrottle, WaitingSlots],
})
export class RateLimitModule {}
