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

/** The answer's headers as a Node response (Express's, or the one under Fastify's reply) keeps them. */
class FakeResponse {
  readonly headers: Record<string, string> = {};
  header = () => undefined;
  setHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
}

function contextOf(request: FakeRequest, response = new FakeResponse()): ExecutionContext {
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
    { name: 'window', ttl: 10_000, limit: 5 },
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
    // Four in one second (the burst refuses the fourth, which the ten-second window then never counts),
    // two more a second later, one past the ten-second limit, another key, and a request the options skip.
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

  it('writes the RateLimit fields on every counted answer, the 429 too: the window closest to refusing', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const guard = new RateLimitGuard(options(), new ThrottlerStorageService(), new RateLimitRefusals());
    const fields: Array<[Outcome, string, string]> = [];
    for (let i = 0; i < 4; i++) {
      const response = new FakeResponse();
      const outcome = await outcomeOf(() => guard.canActivate(contextOf({ key: 'c' }, response)));
      fields.push([outcome, response.headers['RateLimit-Policy'], response.headers.RateLimit]);
    }
    const policy = '"burst";q=3;w=1, "window";q=5;w=10';
    expect(fields).toEqual([
      ['admitted', policy, '"burst";r=2;t=1'],
      ['admitted', policy, '"burst";r=1;t=1'],
      ['admitted', policy, '"burst";r=0;t=1'],
      ['refused', policy, '"burst";r=0;t=1'],
    ]);
    // A second on, the burst is back and the ten-second window is the closer to refusing.
    jest.advanceTimersByTime(1000);
    const response = new FakeResponse();
    await guard.canActivate(contextOf({ key: 'c' }, response));
    expect(response.headers.RateLimit).toBe('"window";r=1;t=9');
  });

  it('writes nothing on a request the options skip', async () => {
    const guard = new RateLimitGuard(options(), new ThrottlerStorageService(), new RateLimitRefusals());
    const response = new FakeResponse();
    await guard.canActivate(contextOf({ key: 'd', anonymous: true }, response));
    expect(response.headers).toEqual({});
  });
});
