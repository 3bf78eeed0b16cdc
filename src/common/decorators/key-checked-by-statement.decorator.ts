import { SetMetadata } from '@nestjs/common';
import { KEY_CHECKED_BY_STATEMENT } from './auth-metadata';

/**
 * The route's service checks an integration key inside its own statement (PendingKeyCheck): for
 * the hot paths, where a second round trip to PostgreSQL costs more than the rest of the request.
 * Other credentials are checked by the guards as everywhere.
 */
export const KeyCheckedByStatement = (): MethodDecorator => SetMetadata(KEY_CHECKED_BY_STATEMENT, true);
