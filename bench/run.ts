// `npm run bench -- <name> [args]`: each benchmark is a module in bench/ exporting main(args).
const [name, ...args] = process.argv.slice(2);
const benches = ['eventstore', 'validation', 'as4', 'invoices', 'delivery', 'auth', 'startup', 'credit-notes', 'webhooks', 'sapi', 'bulk-import', 'pdf', 'rebuild', 'hot-streams', 'memory'] as const;
type Bench = (typeof benches)[number];

if (!benches.includes(name as Bench)) {
  console.error(`usage: npm run bench -- <${benches.join('|')}> [args]`);
  process.exit(2);
}
const module = (await import(`./${name as Bench}.ts`)) as { main(args: string[]): Promise<void> };
await module.main(args);
process.exit(0);
