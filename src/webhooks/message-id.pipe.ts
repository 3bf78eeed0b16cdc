import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';

const MESSAGE_ID = /^msg_[0-9a-f]{32}$/;

/** A message id in a path: what the service issues (`msg_` and 32 hex digits), else 400. */
@Injectable()
export class MessageIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!MESSAGE_ID.test(value)) throw AppError.badRequest(['messageId must be a message id (msg_…)']);
    return value;
  }
}
