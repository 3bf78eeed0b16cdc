import { applyDecorators, SetMetadata } from '@nestjs/common';
import { IS_PUBLIC } from './auth-metadata';

/** Opts a route out of authentication. Everything else is denied to anonymous callers. */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true));
