import { execFileSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { type SharedSuite } from '../support/suite';
import { CONTRACT_PUBLIC_URL } from './openapi-responses';

type Operation = { operationId?: string; summary?: string; security?: Array<Record<string, unknown>> };

/**
 * The served document as a client generator reads it (contract §20): Redocly's recommended rules
 * find no error, every operation has a summary and an operationId fit for a method name, the
 * signed inbound routes have their schemes, and `servers` names the service.
 */
export function describeOpenApiGeneratorFit(shared: SharedSuite): void {
  describe('the OpenAPI document, as a generator reads it', () => {
    let document: { servers?: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };
    let operations: Array<{ at: string; op: Operation }>;

    beforeAll(async () => {
      document = (await request(shared.suite.t.http).get('/docs-json').expect(200)).body;
      operations = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
      );
    });

    it("has no error under Redocly's recommended rules", () => {
      const output = execFileSync(process.execPath, [path.join(__dirname, '../support/redocly-lint.mjs')], {
        input: JSON.stringify(document),
        encoding: 'utf8',
      });
      const problems = JSON.parse(output) as Array<{
        severity: string;
        ruleId: string;
        message: string;
        pointer: string;
      }>;
      const errors = problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} ${p.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
    });

    it('gives every operation a summary and a unique operationId fit for a method name', () => {
      const unfit = operations.filter(({ op }) => !op.summary || !/^[a-z][A-Za-z0-9]*$/.test(op.operationId ?? ''));
      expect(unfit.map(({ at }) => at)).toEqual([]);
      const ids = operations.map(({ op }) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("names the service's public address as its server, and each signed inbound route's scheme", () => {
      expect(document.servers).toEqual([expect.objectContaining({ url: CONTRACT_PUBLIC_URL })]);
      expect(document.paths['/payments/webhook'].post.security).toEqual([{ paymentSignature: [] }]);
      expect(document.paths['/carrier/webhook'].post.security).toEqual([{ carrierSignature: [] }]);
      expect(document.paths['/auth/login'].post.security).toEqual([{}]);
    });
  });
}
