import { applyDecorators, SetMetadata, UseFilters } from '@nestjs/common';
import { KEY_CHECKED_BY_STATEMENT } from '../../common/decorators/auth-metadata';
import { StatementKeyErrors } from './statement-key-errors.filter';

/**
 * The route's service checks an integration key's liveness inside its own statement
 * (PendingKeyCheck): for the hot paths, where a second round trip to PostgreSQL costs more than
 * the rest of the request (PERF-18). Other credentials, and a key this instance has not seen yet,
 * are checked by the guards as everywhere. A refusal before the statement ran is answered only
 * once the key is checked, so the key's own 401/403 comes first, as on any other route.
 */
export const KeyCheckedByStatement = (): MethodDecorator =>
  applyDecorators(SetMetadata(KEY_CHECKED_BY_STATEMENT, true), UseFilters(StatementKeyErrors));
