import { DataDirInUse } from './platform/db/data-dir-lock.ts';
import { keepFilesPrivate } from './platform/db/data-dir.ts';

// `npm run cli -- <command> [args]`: each command is a module in src/cli/ exporting run(args) -> exit code.
// What it writes (PGlite's files under DATA_DIR, the demo credentials) is its user's alone, as the service's are.
keepFilesPrivate();
const [command, ...args] = process.argv.slice(2);
const commands = ['projections', 'demo', 'validate', 'reporting'] as const;
type Command = (typeof commands)[number];

function isCommand(name: string | undefined): name is Command {
  return commands.includes(name as Command);
}

if (!isCommand(command)) {
  console.error(`usage: npm run cli -- <${commands.join('|')}> [args]`);
  process.exit(2);
}
const module = (await import(`./cli/${command}.ts`)) as { run(args: string[]): Promise<number> };
try {
  process.exitCode = await module.run(args);
} catch (error) {
  if (!(error instanceof DataDirInUse)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
