import { ApiParam } from '@nestjs/swagger';
import { INT4_MAX } from '../validation/integer-text';

/**
 * Declares `{brandId}` for routes under `/admin/brands/:brandId/…` whose handlers do not read it:
 * the brand guard takes the brand from the path, and the OpenAPI document must still name it.
 */
export const BrandPathParam = () =>
  ApiParam({
    name: 'brandId',
    schema: { type: 'integer', minimum: 1, maximum: INT4_MAX },
    description: 'The brand the request acts in; it decides the brand, X-Brand-Id is ignored',
  });
