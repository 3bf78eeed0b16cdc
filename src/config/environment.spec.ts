import { ConfigurationError, validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('applies the documented defaults', () => {
    const env = validateEnvironment({});
    expect(env).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      MIGRATIONS_RUN: true,
      DATABASE_POOL_SIZE: 10,
      SESSION_TTL_HOURS: 12,
      SESSION_COOKIE_SECURE: false,
      LOG_LEVEL: 'info',
      TRUST_PROXY: 0,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.SESSION_SECRET).toBeUndefined();
  });

  // The spec's bound for a revoked or switched-off site key in every instance (the medium suite uses 1 s).
  it('keeps the site-key cache within 30 s: 10 by default, 31 refused', () => {
    expect(validateEnvironment({}).SITE_KEY_CACHE_SECONDS).toBe(10);
    expect(validateEnvironment({ SITE_KEY_CACHE_SECONDS: '30' }).SITE_KEY_CACHE_SECONDS).toBe(30);
    expect(() => validateEnvironment({ SITE_KEY_CACHE_SECONDS: '31' })).toThrow(ConfigurationError);
  });

  it('parses numbers and booleans from strings', () => {
    const env = validateEnvironment({ PORT: '8080', MIGRATIONS_RUN: 'false', DATABASE_POOL_SIZE: '25' });
    expect(env.PORT).toBe(8080);
    expect(env.MIGRATIONS_RUN).toBe(false);
    expect(env.DATABASE_POOL_SIZE).toBe(25);
  });

  it('reads TRUST_PROXY as hops or a list of proxies', () => {
    expect(validateEnvironment({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(validateEnvironment({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(validateEnvironment({ TRUST_PROXY: '10.0.0.0/8,::1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '::1']);
  });

  it('treats an empty value as unset', () => {
    expect(validateEnvironment({ DATABASE_URL: '', SESSION_SECRET: '' }).DATABASE_URL).toBeUndefined();
    expect(validateEnvironment({ METRICS_PORT: '' }).METRICS_PORT).toBeUndefined();
    expect(validateEnvironment({ METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464);
  });

  it.each([
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be an integer between 0 and 65535'],
    [{ METRICS_PORT: '0' }, 'Invalid configuration: METRICS_PORT must be an integer between 1 and 65535'],
    [{ METRICS_PORT: '9464x' }, 'Invalid configuration: METRICS_PORT must be an integer between 1 and 65535'],
    [{ PORT: '9464', METRICS_PORT: '9464' }, 'Invalid configuration: METRICS_PORT must differ from PORT'],
    [{ DATABASE_URL: 'http://db' }, 'Invalid configuration: DATABASE_URL must be a postgres:// URL'],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'a@b.example' },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must be set together with BOOTSTRAP_ADMIN_EMAIL',
    ],
    [
      { BOOTSTRAP_ADMIN_PASSWORD: 'long-enough' },
      'Invalid configuration: BOOTSTRAP_ADMIN_EMAIL must be set together with BOOTSTRAP_ADMIN_PASSWORD',
    ],
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: 'short' },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must have 12 to 256 characters',
    ],
    // The old floor of 8 let these through; the password rule does not (contract §19).
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: 'eleven-char' },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must have 12 to 256 characters',
    ],
    [
      // Eleven emoji: 22 UTF-16 units, 11 characters.
      { BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: '😀'.repeat(11) },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must have 12 to 256 characters',
    ],
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: 'x'.repeat(257) },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must have 12 to 256 characters',
    ],
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: 'QWERTY123456' },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must not be one of the 10000 most common passwords',
    ],
    [
      { BOOTSTRAP_ADMIN_EMAIL: 'Owner@shop.example', BOOTSTRAP_ADMIN_PASSWORD: 'the-OWNER-password-1' },
      'Invalid configuration: BOOTSTRAP_ADMIN_PASSWORD must not contain the local part of BOOTSTRAP_ADMIN_EMAIL',
    ],
    [
      { TRUST_PROXY: 'on' },
      'Invalid configuration: TRUST_PROXY must be true, false, a number of proxy hops or a comma-separated list of proxy addresses or CIDR blocks',
    ],
  ])('%p is refused with one line naming the variable', (raw, message) => {
    expect(() => validateEnvironment(raw)).toThrow(new ConfigurationError(message));
  });

  it('takes a first superadministrator whose password passes the password rule', () => {
    const env = validateEnvironment({
      BOOTSTRAP_ADMIN_EMAIL: 'owner@shop.example',
      BOOTSTRAP_ADMIN_PASSWORD: 'a-long-first-phrase',
    });
    expect(env).toMatchObject({
      BOOTSTRAP_ADMIN_EMAIL: 'owner@shop.example',
      BOOTSTRAP_ADMIN_PASSWORD: 'a-long-first-phrase',
    });
    // Twelve characters exactly, and 256 emoji (512 UTF-16 units) are within the rule.
    expect(() =>
      validateEnvironment({ BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: 'twelve-chars' }),
    ).not.toThrow();
    expect(() =>
      validateEnvironment({ BOOTSTRAP_ADMIN_EMAIL: 'a@b.example', BOOTSTRAP_ADMIN_PASSWORD: '😀'.repeat(256) }),
    ).not.toThrow();
  });
});
