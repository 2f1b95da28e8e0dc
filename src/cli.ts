// `npm run cli -- <command> [args]`: each command is a module in src/cli/ exporting run(args) -> exit code.
const [command, ...args] = process.argv.slice(2);
const commands = ['projections', 'demo', 'validate'] as const;
type Command = (typeof commands)[number];

function isCommand(name: string | undefined): name is Command {
  return commands.includes(name as Command);
}

if (!isCommand(command)) {
  console.error(`usage: npm run cli -- <${commands.join('|')}> [args]`);
  process.exit(2);
}
const module = (await import(`./cli/${command}.ts`)) as { run(args: string[]): Promise<number> };
process.exitCode = await module.run(args);
