import { plainToInstance, Transform } from 'class-transformer';
import {
  IsBoolean,
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

  @Transform(emptyToUndefined)
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL?: string;

  @Transform(toInt)
  @IsInt({ message: 'DATABASE_POOL_SIZE must be an integer between 1 and 200' })
  @Min(1, { message: 'DATABASE_POOL_SIZE must be an integer between 1 and 200' })
  @Max(200, { message: 'DATABASE_POOL_SIZE must be an integer between 1 and 200' })
  DATABASE_POOL_SIZE = 10;

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

  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    message: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
  })
  LOG_LEVEL = 'info';

  @Transform(toBool)
  @IsBoolean({ message: 'TRUST_PROXY must be true or false' })
  TRUST_PROXY = false;
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
  return env;
}
