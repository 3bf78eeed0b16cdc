import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { IS_PUBLIC } from './auth-metadata';

/**
 * Opts a route out of authentication. Everything else is denied to anonymous callers. The
 * document says so with the empty security requirement: no credential is asked for.
 */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiSecurity({}));
