import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, HttpAdapterHost, MetadataScanner } from '@nestjs/core';

interface RouteTemplate {
  method: string;
  template: string;
  pattern: RegExp;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The template of the route a request would have reached, for one that Express refused before
 * routing it (a body too large, malformed JSON): Fastify routes first, so there the outcome
 * names it already. Matched as Express routes: any case, an optional trailing slash, HEAD as GET.
 * Only failures ask, never a request that succeeded.
 */
@Injectable()
export class RouteTemplates implements OnApplicationBootstrap {
  private routes: RouteTemplate[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (this.adapterHost.httpAdapter?.getType() !== 'express') return;
    for (const { metatype } of this.discovery.getControllers()) {
      if (!metatype) continue;
      const prototype = metatype.prototype as Record<string, object>;
      for (const base of pathsOf(Reflect.getMetadata(PATH_METADATA, metatype))) {
        for (const name of this.scanner.getAllMethodNames(prototype)) {
          const handler = prototype[name];
          const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
          if (method === undefined) continue;
          for (const sub of pathsOf(Reflect.getMetadata(PATH_METADATA, handler))) {
            const template = `/${[base, sub].filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
            this.routes.push({ method: RequestMethod[method], template, pattern: patternOf(template) });
          }
        }
      }
    }
  }

  /** The route's template, or null when none would have taken the request (or on Fastify). */
  of(method: string, path: string): string | null {
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const route of this.routes) {
      if ((route.method === wanted || route.method === 'ALL') && route.pattern.test(path)) return route.template;
    }
    return null;
  }
}

function pathsOf(metadata: unknown): string[] {
  if (Array.isArray(metadata)) return metadata.map(String);
  return [typeof metadata === 'string' ? metadata : ''];
}

function patternOf(template: string): RegExp {
  const segments = template.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : escape(segment)));
  return new RegExp(`^${segments.join('/')}/?$`, 'i');
}
