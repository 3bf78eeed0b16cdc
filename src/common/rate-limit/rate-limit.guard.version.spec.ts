describe('RateLimitGuard and the @nestjs/throttler it was checked against', () => {
  const CHECKED_AGAINST = '6.7.1';

  it('is still the installed version', () => {
    const installed = jest.requireActual<{ version: string }>('@nestjs/throttler/package.json').version;
    if (installed === CHECKED_AGAINST) return;
    throw new Error(
      `@nestjs/throttler is ${installed}; rate-limit.guard.ts was checked against ${CHECKED_AGAINST}. ` +
        "It counts the module's windows itself instead of through ThrottlerGuard: re-check the library's " +
        'canActivate and handleRequest (windows counted shortest ttl first, an unnamed one called "default", ' +
        'blockDuration defaulting to ttl, the arguments of storage.increment, a refusal when isBlocked with ' +
        'timeToBlockExpire, skipIf and getTracker), and that no option rate-limit.module.ts sets is one the ' +
        'guard ignores. Then set CHECKED_AGAINST to the new version.',
    );
  });
});
