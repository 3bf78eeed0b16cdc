import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorText } from '../errors/error-texts';
import { AUTH_REALM } from './auth-metadata';

/** Routes of the production API: site keys only, with that API's own error texts. */
export const ProductionApi = () =>
  applyDecorators(
    SetMetadata(AUTH_REALM, 'production'),
    ApiBearerAuth(),
    ApiUnauthorizedResponse({ description: `${ErrorText.missingApiKey} | ${ErrorText.invalidApiKey}` }),
  );
