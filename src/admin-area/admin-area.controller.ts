import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiExcludeController } from '@nestjs/swagger';
import { contextOf } from '../common/context/context-of';
import type { HttpReply, HttpRequest } from '../common/context/http-types';
import { Public } from '../common/decorators/public.decorator';
import { AppError } from '../common/errors/app-error';
import type { Environment } from '../config/environment';
import { BuiltFiles } from './built-files';

/**
 * No script but our own, no inline script or style, no request to another origin, no framing
 * (contract §13). `connect-src 'self'`: the page talks only to this API.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A year, this host only: includeSubDomains and preload bind other hosts too, so they are the
 * operator's to add at the proxy. Sent only here, not on the API (/auth/login): a browser applies it
 * to the whole host, it reaches the service through this page first, and API clients ignore it.
 */
const HSTS = 'max-age=31536000';

/** Serves the admin area (dashboard/, built by npm run build): a page over the public API. */
@ApiExcludeController()
@Controller('dashboard')
export class AdminAreaController {
  /** SESSION_COOKIE_SECURE=true says the service is reached over HTTPS (docs/operations.md: Running behind TLS). */
  private readonly https: boolean;

  constructor(
    private readonly files: BuiltFiles,
    config: ConfigService<Environment, true>,
  ) {
    this.https = config.get('SESSION_COOKIE_SECURE', { infer: true });
  }

  /**
   * `/dashboard/` is the page (its assets are relative to it); `/dashboard` redirects there. The
   * page itself is never cached: a new build is picked up at the next load.
   */
  @Public()
  @Get()
  page(@Req() request: HttpRequest, @Res({ passthrough: true }) reply: HttpReply): string | undefined {
    this.secureTransport(reply);
    if (!contextOf(request).path.endsWith('/')) {
      reply.status(302);
      reply.header('Location', '/dashboard/');
      return undefined;
    }
    if (!this.files.index) throw AppError.unavailable(['the admin area is not built: run npm run build']);
    reply.header('Content-Type', 'text/html; charset=utf-8');
    reply.header('Cache-Control', 'no-store');
    reply.header('Content-Security-Policy', CSP);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    return this.files.index;
  }

  /** Hashed names: a changed file has a new name, so a year of caching is safe. */
  @Public()
  @Get('assets/:name')
  asset(@Param('name') name: string, @Res({ passthrough: true }) reply: HttpReply): string {
    this.secureTransport(reply);
    const file = this.files.asset(name);
    if (!file) throw AppError.notFound();
    reply.header('Content-Type', file.type);
    reply.header('Cache-Control', 'public, max-age=31536000, immutable');
    reply.header('X-Content-Type-Options', 'nosniff');
    return file.body;
  }

  private secureTransport(reply: HttpReply): void {
    if (this.https) reply.header('Strict-Transport-Security', HSTS);
  }
}
