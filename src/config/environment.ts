import { plainToInstance, Transform } from 'class-transformer';
import { IsDefined, IsEmail, IsIn, IsOptional, IsString, Matches, MinLength, validateSync } from 'class-validator';
import { emptyToUndefined, Flag, IntRange, OptionalIntRange, TextLength } from './env-decorators';
import {
  COMMON_PASSWORD_COUNT,
  PASSWORD_MAX,
  PASSWORD_MIN,
  passwordRuleBreach,
  type PasswordRuleBreach,
} from './password-rule';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

/** Connections per instance; the bench and its yardstick run with it too. */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

/**
 * Every variable the service reads. Validated once at start so a wrong value stops the
 * process with one line naming the variable, instead of failing later on first use.
 */
export class Environment {
  @IntRange(0, 65535)
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** Prometheus' `GET /metrics` on this port (on HOST), never on PORT; unset, nothing listens. */
  @OptionalIntRange(1, 65535)
  METRICS_PORT?: number;

  @IsIn(['fastify', 'express'], { message: 'HTTP_ADAPTER must be fastify or express' })
  HTTP_ADAPTER: 'fastify' | 'express' = 'fastify';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @IntRange(1, 200)
  DATABASE_POOL_SIZE = DEFAULT_DATABASE_POOL_SIZE;

  @IsString()
  @TextLength(1)
  DATA_DIR = './data';

  @Flag()
  MIGRATIONS_RUN = true;

  @Transform(emptyToUndefined)
  @IsOptional()
  @TextLength(32)
  SESSION_SECRET?: string;

  @IntRange(1, 720)
  SESSION_TTL_HOURS = 12;

  @Flag()
  SESSION_COOKIE_SECURE = false;

  /**
   * The address people open (contract §19): links in mails start with it. Unset, it is
   * `http://localhost:<PORT>` (publicUrlOf).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
    message: 'PUBLIC_URL must be an http(s) URL without a query or fragment',
  })
  PUBLIC_URL?: string;

  /** How long a sign-in or step-up counts as recent for the sensitive actions (contract §19). */
  @IntRange(30, 86_400)
  RECENT_AUTH_SECONDS = 600;

  /** How long the second step of a sign-in may wait for its code or passkey (contract §19). */
  @IntRange(30, 3_600)
  LOGIN_CHALLENGE_SECONDS = 300;

  /**
   * The WebAuthn relying party's id: PUBLIC_URL's host or a registrable suffix of it. Unset, it is
   * PUBLIC_URL's host (relyingPartyOf).
   */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^(?=.{1,253}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, {
    message: 'WEBAUTHN_RP_ID must be a domain name in lower case',
  })
  WEBAUTHN_RP_ID?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsEmail({}, { message: 'BOOTSTRAP_ADMIN_EMAIL must be an e-mail address' })
  BOOTSTRAP_ADMIN_EMAIL?: string;

  /** Held to the password rule of every other password (validateEnvironment, after the e-mail). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'BOOTSTRAP_ADMIN_PASSWORD must be a string' })
  BOOTSTRAP_ADMIN_PASSWORD?: string;

  @IntRange(0, 30)
  SITE_KEY_CACHE_SECONDS = 10;

  @Transform(emptyToUndefined)
  @IsOptional()
  @TextLength(16)
  PAYMENT_WEBHOOK_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @TextLength(16)
  CARRIER_WEBHOOK_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'CARRIER_API_URL must be an http(s) URL' })
  CARRIER_API_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CARRIER_API_TOKEN?: string;

  @IntRange(100, 120_000)
  CARRIER_TIMEOUT_MS = 10_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  @MinLength(3, { message: 'MAIL_FROM must be an address' })
  MAIL_FROM = 'Commerce platform <no-reply@localhost>';

  @Flag()
  OUTBOX_WORKER = true;

  @IntRange(50, 60_000)
  OUTBOX_POLL_MS = 1000;

  @IntRange(1, 3600)
  OUTBOX_LEASE_SECONDS = 60;

  @IntRange(10, 5000)
  OUTBOX_RETRY_BASE_MS = 5000;

  @IntRange(10, 300_000)
  OUTBOX_RETRY_MAX_MS = 300_000;

  @IntRange(1, 86_400)
  OUTBOX_GIVE_UP_AFTER_SECONDS = 86_400;

  /**
   * Catalog imports (contract §18) one instance runs at once, each holding up to 5 MiB of file and a
   * parse: the bound of what imports may take of an instance. One more → 429.
   */
  @IntRange(1, 64)
  CATALOG_IMPORTS_PER_INSTANCE = 8;

  /** Catalog imports one caller (a key, a session's user) runs at once on an instance. One more → 429. */
  @IntRange(1, 64)
  CATALOG_IMPORTS_PER_CALLER = 2;

  /** 64 hex characters (32 bytes): the AES-256-GCM key of the webhook signing secrets at rest. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'SECRETS_ENCRYPTION_KEY must be 64 hex characters' })
  SECRETS_ENCRYPTION_KEY?: string;

  @Flag()
  WEBHOOK_WORKER = true;

  @IntRange(20, 60000)
  WEBHOOK_POLL_MS = 500;

  @IntRange(100, 120000)
  WEBHOOK_TIMEOUT_MS = 15000;

  /**
   * How long a keyed request may go unanswered before a retry takes its claim over (contract §11:
   * settled within 2 minutes); longer than any request runs. Short in the crash suites.
   */
  @IntRange(1, 120)
  IDEMPOTENCY_ABANDON_SECONDS = 120;

  /** Comma-separated seconds between attempts; unset: Svix's schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,19}$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated numbers of seconds',
  })
  WEBHOOK_RETRY_SCHEDULE?: string;

  @IntRange(1, 31536000)
  WEBHOOK_DISABLE_AFTER_SECONDS = 432000;

  @IntRange(1, 3650)
  WEBHOOK_LOG_RETENTION_DAYS = 30;

  /** How long the events API keeps an event (contract §16, §21): at least 30 days. */
  @IntRange(30, 3650)
  EVENTS_RETENTION_DAYS = 90;

  /** How often each instance prunes the events past their retention; 0: this instance does not. */
  @IntRange(0, 86_400)
  EVENTS_PRUNE_SECONDS = 3600;

  @IntRange(1, 1000)
  WEBHOOK_CONCURRENCY = 400;

  @IntRange(1, 100)
  WEBHOOK_ENDPOINT_CONCURRENCY = 100;

  @Flag()
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  @IntRange(1, 86_400)
  KEY_EXPIRY_CHECK_SECONDS = 3600;

  /** How often each instance applies the brands' retention of buyers' data (contract §17). */
  @IntRange(1, 86_400)
  PERSONAL_DATA_CHECK_SECONDS = 3600;

  /** How long a done follow-up job keeps what it may have copied of a buyer (contract §17). */
  @IntRange(1, 3650)
  OUTBOX_RETENTION_DAYS = 7;

  /** How often each instance writes its request-log counts and failures; at most 4 s, so an entry is readable within 5 s. */
  @IntRange(50, 4000)
  REQUEST_LOG_FLUSH_MS = 2000;

  @IntRange(1)
  RATE_LIMIT_PER_SECOND = 100;

  @IntRange(1)
  RATE_LIMIT_BURST = 200;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @IsString()
  @TextLength(1)
  RATE_LIMIT_KEY_PREFIX = 'cil';

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL = 'info';

  @Transform(({ value }: { value: unknown }) => parseTrustProxy(value))
  @IsDefined({
    message:
      'TRUST_PROXY must be true, false, a number of proxy hops or a comma-separated list of proxy addresses or CIDR blocks',
  })
  TRUST_PROXY: TrustProxy = 0;
}

export class ConfigurationError extends Error {}

/** Parses and validates raw variables; throws ConfigurationError whose message is one line. */
export function validateEnvironment(raw: Record<string, unknown>): Environment {
  const env = plainToInstance(Environment, raw, { exposeDefaultValues: true });
  if (Boolean(raw.BOOTSTRAP_ADMIN_PASSWORD) !== Boolean(raw.BOOTSTRAP_ADMIN_EMAIL)) {
    const [missing, given] = raw.BOOTSTRAP_ADMIN_EMAIL
      ? ['BOOTSTRAP_ADMIN_PASSWORD', 'BOOTSTRAP_ADMIN_EMAIL']
      : ['BOOTSTRAP_ADMIN_EMAIL', 'BOOTSTRAP_ADMIN_PASSWORD'];
    throw new ConfigurationError(`Invalid configuration: ${missing} must be set together with ${given}`);
  }
  const errors = validateSync(env, { whitelist: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const first = errors[0];
    const message = Object.values(first.constraints ?? {})[0] ?? `${first.property} is invalid`;
    throw new ConfigurationError(`Invalid configuration: ${message}`);
  }
  if (env.METRICS_PORT !== undefined && env.METRICS_PORT === env.PORT)
    throw new ConfigurationError('Invalid configuration: METRICS_PORT must differ from PORT');
  // The first superadministrator's password is a password like any other (contract §19): one the
  // API would refuse must not come in through the environment and stay for good.
  if (env.BOOTSTRAP_ADMIN_PASSWORD !== undefined && env.BOOTSTRAP_ADMIN_EMAIL !== undefined) {
    const breach = passwordRuleBreach(env.BOOTSTRAP_ADMIN_PASSWORD, env.BOOTSTRAP_ADMIN_EMAIL);
    if (breach) throw new ConfigurationError(`Invalid configuration: ${BOOTSTRAP_PASSWORD_BREACH[breach]}`);
  }
  return env;
}

const BOOTSTRAP_PASSWORD_BREACH: Record<PasswordRuleBreach, string> = {
  length: `BOOTSTRAP_ADMIN_PASSWORD must have ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`,
  common: `BOOTSTRAP_ADMIN_PASSWORD must not be one of the ${COMMON_PASSWORD_COUNT} most common passwords`,
  local_part: 'BOOTSTRAP_ADMIN_PASSWORD must not contain the local part of BOOTSTRAP_ADMIN_EMAIL',
};

/** PUBLIC_URL without a trailing slash, or the local address on PORT. */
export function publicUrlOf(env: Pick<Environment, 'PUBLIC_URL' | 'PORT'>): string {
  return (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
}

/**
 * Where passkeys are bound (contract §19): the origin people open (PUBLIC_URL's) and the relying
 * party id, WEBAUTHN_RP_ID or that origin's host.
 */
export function relyingPartyOf(env: Pick<Environment, 'PUBLIC_URL' | 'PORT' | 'WEBAUTHN_RP_ID'>): {
  id: string;
  origin: string;
} {
  const url = new URL(publicUrlOf(env));
  return { id: env.WEBAUTHN_RP_ID ?? url.hostname, origin: url.origin };
}

/** For entry points: the validated environment, or one line on stderr and exit code 1. */
export function environmentOrExit(raw: Record<string, unknown> = process.env): Environment {
  try {
    return validateEnvironment(raw);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
