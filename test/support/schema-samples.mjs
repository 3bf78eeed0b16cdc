// Valid instances of JSON schemas, made by json-schema-faker (a generator nobody here wrote), for
// the contract suite's positive data check. Reads {schemas, components, count, seed} on standard
// input and prints one list of samples per schema. A process of its own: the library is ECMAScript-module only.
import { createGenerator } from 'json-schema-faker';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const { schemas, components, count, seed } = JSON.parse(input);
const generator = createGenerator({ seed, optionalsProbability: 0.7, fillProperties: false, maxItems: 5 });
const samples = [];
for (const schema of schemas) {
  const made = [];
  for (let i = 0; i < count; i++) made.push(await generator.generate({ ...schema, components }));
  samples.push(made);
}
process.stdout.write(JSON.stringify(samples));
