// Child process of `npm run bench -- validation`: compiles one rule file to JavaScript with no cache and
// prints `{ ms, maxRssMb }` as JSON, so the peak memory of a compile is measured on its own.
// Usage: tsx bench/validation-compile.ts <file.sch>
import fs from 'node:fs';
import { compileSchematron } from '../src/platform/validation/compiled/schematron.ts';
import { parseSchematron } from '../src/platform/validation/schematron/parse.ts';

const file = process.argv[2] ?? '';
const started = performance.now();
const compiled = compileSchematron(parseSchematron(fs.readFileSync(file)));
new Function('R', compiled.source); // V8 parses the generated module too
const ms = performance.now() - started;
console.log(JSON.stringify({ ms, maxRssMb: process.resourceUsage().maxRSS / 1024, rules: compiled.rules, fallbackRules: compiled.fallbackRules }));
