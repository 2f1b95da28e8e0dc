// The campaigns `npm run campaign -- NAME` knows, in the order `all` runs them. Each is a module
// campaigns/<name>/index.ts exporting `run(options): Promise<CampaignReport>`.
export const campaigns = [
  { name: 'fuzz', what: 'every route body, header and path id fuzzed: 0 5xx, 0 schema breaks, 0 pollution' },
  { name: 'xml', what: 'XML bombs and XXE on every XML entry point: refused in time and memory, 0 canary reads' },
  { name: 'jwt', what: 'forged and misused tokens on every authenticated route: 0 accepted' },
  { name: 'walk', what: "organisation B on every route against A's ids: 0 leaks" },
  { name: 'crash', what: 'kill -9 under mixed load: 0 acknowledged commands lost, 0 read-model diff rows' },
  { name: 'crash-effects', what: 'kill between a side effect and its record: 0 duplicate side effects' },
  { name: 'pg-restart', what: 'Postgres restarted mid-load: reconnects in ≤ 5 s, nothing lost' },
  { name: 'redis-down', what: 'Redis stopped for 60 s: requests pass, 0 5xx, limiting resumes in ≤ 10 s' },
  { name: 'scale', what: '3 instances on one Postgres, one killed every 20 s: nothing lost, doubled or stale' },
] as const;

export type CampaignName = (typeof campaigns)[number]['name'];
