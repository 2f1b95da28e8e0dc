// `npm run campaign -- NAME|all [--seed N] [--quick] [--db pglite,postgres] [args]`: long runs
// against the real service that end with a summary table (printed, and JSON under reports/).
import { campaigns, type CampaignName } from './catalogue.ts';
import { formatTable, passed, saveReports, type CampaignOptions, type CampaignReport } from './report.ts';

function parse(argv: string[]): { name: string; options: CampaignOptions } {
  const [name = '', ...rest] = argv;
  const args: string[] = [];
  let seed = Number(process.env.CAMPAIGN_SEED ?? Date.now() % 1_000_000);
  let quick = false;
  let databases: CampaignOptions['databases'] = ['pglite', 'postgres'];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--seed') seed = Number(rest[++i]);
    else if (arg === '--quick') quick = true;
    else if (arg === '--db') databases = (rest[++i] ?? '').split(',') as CampaignOptions['databases'];
    else args.push(arg);
  }
  return { name, options: { seed, quick, databases, args } };
}

const { name, options } = parse(process.argv.slice(2));
const names = campaigns.map((c) => c.name) as string[];
if (name !== 'all' && !names.includes(name)) {
  console.error(`usage: npm run campaign -- <${names.join('|')}|all> [--seed N] [--quick] [--db pglite,postgres]`);
  for (const c of campaigns) console.error(`  ${c.name.padEnd(14)} ${c.what}`);
  process.exit(2);
}

const chosen = (name === 'all' ? names : [name]) as CampaignName[];
const reports: CampaignReport[] = [];
for (const campaign of chosen) {
  console.log(`== campaign ${campaign} (seed ${options.seed})`);
  const module = (await import(`./${campaign}/index.ts`)) as { run(options: CampaignOptions): Promise<CampaignReport> };
  const report = await module.run(options);
  reports.push(report);
  console.log(`\n${formatTable([report])}\n`);
}
if (chosen.length > 1) console.log(`== all campaigns\n\n${formatTable(reports)}\n`);
console.log(`report: ${await saveReports(name, reports)}`);
process.exit(reports.every(passed) ? 0 : 1);
