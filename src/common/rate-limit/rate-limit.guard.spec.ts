import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ThrottlerGuard, ThrottlerStorageService, type ThrottlerModuleOptions } from '@nestjs/throttler';
import { AppError } from '../errors/app-error';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitRefusals } from './rate-limit-refusals';

interface FakeRequest {
  key: string;
  anonymous?: boolean;
}

class SomeController {}
const handle = (): void => undefined;

function contextOf(request: FakeRequest): ExecutionContext {
  const response = { header: () => undefined };
  const args = [request, response];
  return {
    getArgs: () => args,
    getArgByIndex: (index: number) => args[index],
    getClass: () => SomeController,
    getHandler: () => handle,
    getType: () => 'http',
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => response }),
  } as unknown as ExecutionContext;
}

// Listed longest first: both guards count the shortest first. A fresh object each, as the library sorts in place.
const options = (): ThrottlerModuleOptions => ({
  throttlers: [
    { name: 'sustained', ttl: 10_000, limit: 5 },
    { name: 'burst', ttl: 1000, limit: 3 },
  ],
  setHeaders: false,
  skipIf: (context) => context.getArgByIndex<FakeRequest>(0).anonymous === true,
  getTracker: (request) => (request as FakeRequest).key,
});

type Outcome = 'admitted' | 'refused';

async function outcomeOf(answer: () => boolean | Promise<boolean>): Promise<Outcome> {
  try {
    return (await answer()) ? 'admitted' : 'refused';
  } catch (error) {
    if (error instanceof AppError && error.status !== 429) throw error;
    return 'refused';
  }
}

describe('RateLimitGuard', () => {
  afterEach(() => jest.useRealTimers());

  it("admits and refuses as the library's ThrottlerGuard does with the same windows and storage", async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const refusals = new RateLimitRefusals();
    let refused = 0;
    refusals.listen(() => refused++);
    const ours = new RateLimitGuard(options(), new ThrottlerStorageService(), refusals);
    const theirs = new ThrottlerGuard(options(), new ThrottlerStorageService(), new Reflector());
    await theirs.onModuleInit();
    // Four in one second (the burst refuses the fourth, which the sustained window then never counts),
    // two more a second later, one past the sustained limit, another key, and a request the options skip.
    const steps: Array<FakeRequest | number> = [
      ...Array.from({ length: 4 }, () => ({ key: 'a' })),
      1000,
      ...Array.from({ length: 3 }, () => ({ key: 'a' })),
      { key: 'b' },
      { key: 'a', anonymous: true },
    ];
    const outcomes: Array<[Outcome, Outcome]> = [];
    for (const step of steps) {
      if (typeof step === 'number') {
        jest.advanceTimersByTime(step);
        continue;
      }
      const context = contextOf(step);
      outcomes.push([
        await outcomeOf(() => ours.canActivate(context)),
        await outcomeOf(() => theirs.canActivate(context)),
      ]);
    }
    expect(outcomes.map(([ourOutcome]) => ourOutcome)).toEqual([
      'admitted',
      'admitted',
      'admitted',
      'refused',
      'admitted',
      'admitted',
      'refused',
      'admitted',
      'admitted',
    ]);
    expect(outcomes.map(([, theirOutcome]) => theirOutcome)).toEqual(outcomes.map(([ourOutcome]) => ourOutcome));
    // Each refusal is told once (the metrics count them), an admitted request never.
    expect(refused).toBe(2);
  });

  it('counts a request refused before it runs against the same limit, and past the limit refuses it with 429', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const guard = new RateLimitGuard(options(), new ThrottlerStorageService(), new RateLimitRefusals());
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 2; i++) outcomes.push(await outcomeOf(() => guard.canActivate(contextOf({ key: 'a' }))));
    for (let i = 0; i < 2; i++) {
      outcomes.push(
        await outcomeOf(async () => {
          await guard.countBeforeRefusal({ key: 'a' } as never);
          return true;
        }),
      );
    }
    expect(outcomes).toEqual(['admitted', 'admitted', 'admitted', 'refused']);
  });
});
