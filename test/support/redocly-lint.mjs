// Redocly's recommended rules over an OpenAPI document read from standard input; prints the
// problems as JSON. A process of its own: the library is ECMAScript-module only, the suites are not.
import { createConfig, lintFromString } from '@redocly/openapi-core';

let source = '';
for await (const chunk of process.stdin) source += chunk;
const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
process.stdout.write(
  JSON.stringify(
    problems.map((p) => ({
      severity: p.severity,
      ruleId: p.ruleId,
      message: p.message,
      pointer: p.location[0]?.pointer ?? '',
    })),
  ),
);
