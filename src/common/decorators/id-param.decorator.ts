import { Param, type PipeTransform, type Type } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { INT4_MAX } from '../validation/integer-text';
import { ParseIdPipe } from '../validation/parse-id.pipe';

/**
 * A path id read through its pipe (ParseIdPipe: a canonical positive `integer`) and declared in
 * the document as the pipe takes it, an integer within range: Nest alone would say `number`.
 */
export const IdParam =
  (name: string, pipe: Type<PipeTransform> = ParseIdPipe, maximum = INT4_MAX): ParameterDecorator =>
  (target, key, index) => {
    Param(name, pipe)(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
    ApiParam({ name, schema: { type: 'integer', minimum: 1, maximum } })(target, key!, descriptor);
  };
