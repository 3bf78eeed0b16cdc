import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validateSync,
} from 'class-validator';
import { parseTrustProxy, type TrustProxy } from './trust-proxy';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
const toBool = ({ value }: { value: unknown }) => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  return value;
};
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/** Connections per instance; the bench and its yardstick run with it too. */
export const DEFAULT_DATABASE_POOL_SIZE = 10;

/**
 * Every variable the service reads. Validated once at start so a wrong value stops the
 * process with one line naming the variable, instead of failing later on first use.
 */
export class Environment {
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer between 0 and 65535' })
  @Min(0, { message: 'PORT must be an integer between 0 and 65535' })
  @Max(65535, { message: 'PORT must be an integer between 0 and 65535' })
  PORT = 3000;

  @IsString()
  HOST = '0.0.0.0';

  /** Prometheus' `GET /metrics` on this port (on HOST), never on PORT; unset, nothing listens. */
  @Transform(({ value }: { value: unknown }) => toInt({ value: emptyToUndefined({ value }) }))
  @IsOptional()
  @IsInt({ message: 'METRICS_PORT must be an integer between 1 and 65535' })
  @Min(1, { message: 'METRICS_PORT must be an integer between 1 and 65535' })
  @Max(65535, { message: 'METRICS_PORT must be an integer between 1 and 65535' })
  METRICS_PORT?: number;

  @IsIn(['fastify', 'express'], { message: 'HTTP_ADAPTER must be fastify or express' })
  HTTP_ADAPTER: 'fastify' | 'express' = 'fastify';

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Transform(toInt)
  @IsInt({ message: 'DATABASE_POOL_SIZE must be an integer between 1 and 200' })
  @Min(1, { message: 'DATABASE_POOL_SIZE must be an integer between 1 and 200' })
  @Max(200, { message: 'DATABASE_POOL_SIZE must be an integer between 1 and 200' })
  DATABASE_POOL_SIZE = DEFAULT_DATABASE_POOL_SIZE;

  @IsString()
  @MinLength(1, { message: 'DATA_DIR must not be empty' })
  DATA_DIR = './data';

  @Transform(toBool)
  @IsBoolean({ message: 'MIGRATIONS_RUN must be true or false' })
  MIGRATIONS_RUN = true;

  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  @Transform(toInt)
  @IsInt({ message: 'SESSION_TTL_HOURS must be an integer between 1 and 720' })
  @Min(1, { message: 'SESSION_TTL_HOURS must be an integer between 1 and 720' })
  @Max(720, { message: 'SESSION_TTL_HOURS must be an integer between 1 and 720' })
  SESSION_TTL_HOURS = 12;

  @Transform(toBool)
  @IsBoolean({ message: 'SESSION_COOKIE_SECURE must be true or false' })
  SESSION_COOKIE_SECURE = false;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsEmail({}, { message: 'BOOTSTRAP_ADMIN_EMAIL must be an e-mail address' })
  BOOTSTRAP_ADMIN_EMAIL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString({ message: 'BOOTSTRAP_ADMIN_PASSWORD must be a string' })
  @MinLength(8, { message: 'BOOTSTRAP_ADMIN_PASSWORD must be at least 8 characters' })
  @MaxLength(256, { message: 'BOOTSTRAP_ADMIN_PASSWORD must be at most 256 characters' })
  BOOTSTRAP_ADMIN_PASSWORD?: string;

  @Transform(toInt)
  @IsInt({ message: 'SITE_KEY_CACHE_SECONDS must be an integer between 0 and 30' })
  @Min(0, { message: 'SITE_KEY_CACHE_SECONDS must be an integer between 0 and 30' })
  @Max(30, { message: 'SITE_KEY_CACHE_SECONDS must be an integer between 0 and 30' })
  SITE_KEY_CACHE_SECONDS = 10;

  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(16, { message: 'PAYMENT_WEBHOOK_SECRET must be at least 16 characters' })
  PAYMENT_WEBHOOK_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @MinLength(16, { message: 'CARRIER_WEBHOOK_SECRET must be at least 16 characters' })
  CARRIER_WEBHOOK_SECRET?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'CARRIER_API_URL must be an http(s) URL' })
  CARRIER_API_URL?: string;

  @Transform(emptyToUndefined)
  @IsOptional()
  @IsString()
  CARRIER_API_TOKEN?: string;

  @Transform(toInt)
  @IsInt({ message: 'CARRIER_TIMEOUT_MS must be an integer between 100 and 120000' })
  @Min(100, { message: 'CARRIER_TIMEOUT_MS must be an integer between 100 and 120000' })
  @Max(120_000, { message: 'CARRIER_TIMEOUT_MS must be an integer between 100 and 120000' })
  CARRIER_TIMEOUT_MS = 10_000;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsString()
  @MinLength(3, { message: 'MAIL_FROM must be an address' })
  MAIL_FROM = 'Commerce platform <no-reply@localhost>';

  @Transform(toBool)
  @IsBoolean({ message: 'OUTBOX_WORKER must be true or false' })
  OUTBOX_WORKER = true;

  @Transform(toInt)
  @IsInt({ message: 'OUTBOX_POLL_MS must be an integer between 50 and 60000' })
  @Min(50, { message: 'OUTBOX_POLL_MS must be an integer between 50 and 60000' })
  @Max(60_000, { message: 'OUTBOX_POLL_MS must be an integer between 50 and 60000' })
  OUTBOX_POLL_MS = 1000;

  @Transform(toInt)
  @IsInt({ message: 'OUTBOX_LEASE_SECONDS must be an integer between 1 and 3600' })
  @Min(1, { message: 'OUTBOX_LEASE_SECONDS must be an integer between 1 and 3600' })
  @Max(3600, { message: 'OUTBOX_LEASE_SECONDS must be an integer between 1 and 3600' })
  OUTBOX_LEASE_SECONDS = 60;

  @Transform(toInt)
  @IsInt({ message: 'OUTBOX_RETRY_BASE_MS must be an integer between 10 and 5000' })
  @Min(10, { message: 'OUTBOX_RETRY_BASE_MS must be an integer between 10 and 5000' })
  @Max(5000, { message: 'OUTBOX_RETRY_BASE_MS must be an integer between 10 and 5000' })
  OUTBOX_RETRY_BASE_MS = 5000;

  @Transform(toInt)
  @IsInt({ message: 'OUTBOX_RETRY_MAX_MS must be an integer between 10 and 300000' })
  @Min(10, { message: 'OUTBOX_RETRY_MAX_MS must be an integer between 10 and 300000' })
  @Max(300_000, { message: 'OUTBOX_RETRY_MAX_MS must be an integer between 10 and 300000' })
  OUTBOX_RETRY_MAX_MS = 300_000;

  @Transform(toInt)
  @IsInt({ message: 'OUTBOX_GIVE_UP_AFTER_SECONDS must be an integer between 1 and 86400' })
  @Min(1, { message: 'OUTBOX_GIVE_UP_AFTER_SECONDS must be an integer between 1 and 86400' })
  @Max(86_400, { message: 'OUTBOX_GIVE_UP_AFTER_SECONDS must be an integer between 1 and 86400' })
  OUTBOX_GIVE_UP_AFTER_SECONDS = 86_400;

  /**
   * Catalog imports (contract §18) one instance runs at once, each holding up to 5 MiB of file and a
   * parse: the bound of what imports may take of an instance. One more → 429.
   */
  @Transform(toInt)
  @IsInt({ message: 'CATALOG_IMPORTS_PER_INSTANCE must be an integer between 1 and 64' })
  @Min(1, { message: 'CATALOG_IMPORTS_PER_INSTANCE must be an integer between 1 and 64' })
  @Max(64, { message: 'CATALOG_IMPORTS_PER_INSTANCE must be an integer between 1 and 64' })
  CATALOG_IMPORTS_PER_INSTANCE = 8;

  /** Catalog imports one caller (a key, a session's user) runs at once on an instance. One more → 429. */
  @Transform(toInt)
  @IsInt({ message: 'CATALOG_IMPORTS_PER_CALLER must be an integer between 1 and 64' })
  @Min(1, { message: 'CATALOG_IMPORTS_PER_CALLER must be an integer between 1 and 64' })
  @Max(64, { message: 'CATALOG_IMPORTS_PER_CALLER must be an integer between 1 and 64' })
  CATALOG_IMPORTS_PER_CALLER = 2;

  /** 64 hex characters (32 bytes): the AES-256-GCM key of the webhook signing secrets at rest. */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'SECRETS_ENCRYPTION_KEY must be 64 hex characters' })
  SECRETS_ENCRYPTION_KEY?: string;

  @Transform(toBool)
  @IsBoolean({ message: 'WEBHOOK_WORKER must be true or false' })
  WEBHOOK_WORKER = true;

  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_POLL_MS must be an integer between 20 and 60000' })
  @Min(20, { message: 'WEBHOOK_POLL_MS must be an integer between 20 and 60000' })
  @Max(60000, { message: 'WEBHOOK_POLL_MS must be an integer between 20 and 60000' })
  WEBHOOK_POLL_MS = 500;

  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_TIMEOUT_MS must be an integer between 100 and 120000' })
  @Min(100, { message: 'WEBHOOK_TIMEOUT_MS must be an integer between 100 and 120000' })
  @Max(120000, { message: 'WEBHOOK_TIMEOUT_MS must be an integer between 100 and 120000' })
  WEBHOOK_TIMEOUT_MS = 15000;

  /**
   * How long a keyed request may go unanswered before a retry takes its claim over (contract §11:
   * settled within 2 minutes); longer than any request runs. Short in the crash suites.
   */
  @Transform(toInt)
  @IsInt({ message: 'IDEMPOTENCY_ABANDON_SECONDS must be an integer between 1 and 120' })
  @Min(1, { message: 'IDEMPOTENCY_ABANDON_SECONDS must be an integer between 1 and 120' })
  @Max(120, { message: 'IDEMPOTENCY_ABANDON_SECONDS must be an integer between 1 and 120' })
  IDEMPOTENCY_ABANDON_SECONDS = 120;

  /** Comma-separated seconds between attempts; unset: Svix's schedule (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^\d+(\.\d+)?(,\d+(\.\d+)?){0,19}$/, {
    message: 'WEBHOOK_RETRY_SCHEDULE must be up to 20 comma-separated numbers of seconds',
  })
  WEBHOOK_RETRY_SCHEDULE?: string;

  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_DISABLE_AFTER_SECONDS must be an integer between 1 and 31536000' })
  @Min(1, { message: 'WEBHOOK_DISABLE_AFTER_SECONDS must be an integer between 1 and 31536000' })
  @Max(31536000, { message: 'WEBHOOK_DISABLE_AFTER_SECONDS must be an integer between 1 and 31536000' })
  WEBHOOK_DISABLE_AFTER_SECONDS = 432000;

  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_LOG_RETENTION_DAYS must be an integer between 1 and 3650' })
  @Min(1, { message: 'WEBHOOK_LOG_RETENTION_DAYS must be an integer between 1 and 3650' })
  @Max(3650, { message: 'WEBHOOK_LOG_RETENTION_DAYS must be an integer between 1 and 3650' })
  WEBHOOK_LOG_RETENTION_DAYS = 30;

  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_CONCURRENCY must be an integer between 1 and 1000' })
  @Min(1, { message: 'WEBHOOK_CONCURRENCY must be an integer between 1 and 1000' })
  @Max(1000, { message: 'WEBHOOK_CONCURRENCY must be an integer between 1 and 1000' })
  WEBHOOK_CONCURRENCY = 400;

  @Transform(toInt)
  @IsInt({ message: 'WEBHOOK_ENDPOINT_CONCURRENCY must be an integer between 1 and 100' })
  @Min(1, { message: 'WEBHOOK_ENDPOINT_CONCURRENCY must be an integer between 1 and 100' })
  @Max(100, { message: 'WEBHOOK_ENDPOINT_CONCURRENCY must be an integer between 1 and 100' })
  WEBHOOK_ENDPOINT_CONCURRENCY = 100;

  @Transform(toBool)
  @IsBoolean({ message: 'WEBHOOK_ALLOW_PRIVATE_URLS must be true or false' })
  WEBHOOK_ALLOW_PRIVATE_URLS = false;

  @Transform(toInt)
  @IsInt({ message: 'KEY_EXPIRY_CHECK_SECONDS must be an integer between 1 and 86400' })
  @Min(1, { message: 'KEY_EXPIRY_CHECK_SECONDS must be an integer between 1 and 86400' })
  @Max(86_400, { message: 'KEY_EXPIRY_CHECK_SECONDS must be an integer between 1 and 86400' })
  KEY_EXPIRY_CHECK_SECONDS = 3600;

  /** How often each instance applies the brands' retention of buyers' data (contract §17). */
  @Transform(toInt)
  @IsInt({ message: 'PERSONAL_DATA_CHECK_SECONDS must be an integer between 1 and 86400' })
  @Min(1, { message: 'PERSONAL_DATA_CHECK_SECONDS must be an integer between 1 and 86400' })
  @Max(86_400, { message: 'PERSONAL_DATA_CHECK_SECONDS must be an integer between 1 and 86400' })
  PERSONAL_DATA_CHECK_SECONDS = 3600;

  /** How long a done follow-up job keeps what it may have copied of a buyer (contract §17). */
  @Transform(toInt)
  @IsInt({ message: 'OUTBOX_RETENTION_DAYS must be an integer between 1 and 3650' })
  @Min(1, { message: 'OUTBOX_RETENTION_DAYS must be an integer between 1 and 3650' })
  @Max(3650, { message: 'OUTBOX_RETENTION_DAYS must be an integer between 1 and 3650' })
  OUTBOX_RETENTION_DAYS = 7;

  /** How often each instance writes its request-log counts and failures; at most 4 s, so an entry is readable within 5 s. */
  @Transform(toInt)
  @IsInt({ message: 'REQUEST_LOG_FLUSH_MS must be an integer between 50 and 4000' })
  @Min(50, { message: 'REQUEST_LOG_FLUSH_MS must be an integer between 50 and 4000' })
  @Max(4000, { message: 'REQUEST_LOG_FLUSH_MS must be an integer between 50 and 4000' })
  REQUEST_LOG_FLUSH_MS = 2000;

  @Transform(toInt)
  @IsInt({ message: 'RATE_LIMIT_PER_SECOND must be a positive integer' })
  @Min(1, { message: 'RATE_LIMIT_PER_SECOND must be a positive integer' })
  RATE_LIMIT_PER_SECOND = 100;

  @Transform(toInt)
  @IsInt({ message: 'RATE_LIMIT_BURST must be a positive integer' })
  @Min(1, { message: 'RATE_LIMIT_BURST must be a positive integer' })
  RATE_LIMIT_BURST = 200;

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @IsString()
  @MinLength(1, { message: 'RATE_LIMIT_KEY_PREFIX must not be empty' })
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
  return env;
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
