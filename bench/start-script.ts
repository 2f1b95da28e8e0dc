import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The options `npm start` gives node in checkout `repo` (package.json's start script, `node <options>
 * dist/src/main.js`), so that a bench starting the compiled service itself starts it the same way.
 */
export function startNodeOptions(repo: string): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts;
  const options = /\bnode\s+(.*?)\s*dist\/src\/main\.js/.exec(scripts?.start ?? '')?.[1];
  return options ? options.split(/\s+/) : [];
}
