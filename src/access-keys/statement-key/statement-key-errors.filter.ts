import { ArgumentsHost, Catch, ExceptionFilter, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { contextOf } from '../../common/context/context-of';
import type { HttpRequest } from '../../common/context/http-types';
import { ErrorFilter } from '../../common/errors/error.filter';
import { KeyChecks } from '../key-checks';

/**
 * The error filter of `@KeyCheckedByStatement` routes: a request refused while its key still
 * awaited its statement (by a guard, by validation) gets the key's own 401 or 403 first, as the
 * guards would have given it; then the service's ordinary error filter answers.
 */
@Injectable()
@Catch()
export class StatementKeyErrors implements ExceptionFilter {
  private answer?: ErrorFilter;

  constructor(
    private readonly keys: KeyChecks,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const answer = (this.answer ??= new ErrorFilter(this.adapterHost.httpAdapter));
    const pending = this.keys.pendingOf(contextOf(host.switchToHttp().getRequest<HttpRequest>()));
    if (!pending) return answer.catch(exception, host);
    pending.settleAlone().then(
      () => answer.catch(exception, host),
      (keyError: unknown) => answer.catch(keyError, host),
    );
  }
}
