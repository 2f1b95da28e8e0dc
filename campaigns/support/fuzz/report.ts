import type { FuzzCase } from './cases.ts';
import type { Answer, Verdict } from './oracle.ts';

export interface Failure {
  route: string;
  fuzzCase: FuzzCase;
  answer: Answer;
  verdict: Verdict;
}

/** Counts of one run, printed at the end of the suite whatever the outcome. */
export class Tally {
  readonly statuses = new Map<string, number>();
  readonly kinds = new Map<string, number>();
  /** wall time of each route's batch */
  readonly seconds = new Map<string, number>();
  readonly byRoute = new Map<string, Map<string, number>>();
  routes = 0;
  cases = 0;

  add(route: string, c: FuzzCase, a: Answer): void {
    this.cases += 1;
    const status = a.error !== undefined ? 'none' : String(a.status);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    this.kinds.set(c.kind, (this.kinds.get(c.kind) ?? 0) + 1);
    const mine = this.byRoute.get(route) ?? new Map<string, number>();
    mine.set(status, (mine.get(status) ?? 0) + 1);
    this.byRoute.set(route, mine);
  }

  /** one line per route: its statuses and its batch's wall time (FUZZ_VERBOSE=1) */
  perRoute(): string {
    return [...this.byRoute.entries()]
      .map(([route, m]) => `  ${route}  ${[...m.entries()].sort().map(([k, n]) => `${k}×${n}`).join(' ')}  ${(this.seconds.get(route) ?? 0).toFixed(1)} s`)
      .join('\n');
  }

  summary(seed: number, perRoute: number, seconds: number): string {
    const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([k, n]) => `${k}: ${n}`).join(', ');
    const slow = [...this.seconds.entries()].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([r, s]) => `${r} ${s.toFixed(1)} s`).join('; ');
    return [
      `fuzz: ${this.routes} routes × ${perRoute} cases = ${this.cases} requests in ${seconds.toFixed(1)} s (FUZZ_SEED=${seed} FUZZ_CASES=${perRoute})`,
      `  statuses  ${sorted(this.statuses)}`,
      `  kinds     ${sorted(this.kinds)}`,
      `  slowest   ${slow}`,
    ].join('\n');
  }
}

/** A request as one line: enough to send it again with curl. */
export function reproduction(c: FuzzCase): string {
  const headers = Object.entries(c.headers).map(([k, v]) => `${k}: ${v.length > 60 ? `${v.slice(0, 40)}…<${v.length} chars>` : v}`);
  const credential = c.credential === 'api_key' ? 'X-Api-Key: <demo key>' : c.credential === 'user' ? 'Authorization: Bearer <admin token>' : '';
  const path = c.path.length > 200 ? `${c.path.slice(0, 200)}…<${c.path.length} chars>` : c.path;
  return [`${c.method} ${path}`, credential, ...headers, c.body === undefined ? '' : `body ${c.bodyPreview}`].filter(Boolean).join(' | ');
}

/** Every failure, grouped by route, problem and case kind, with a count and one example each. */
export function groupedReport(failures: Failure[]): string {
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const key = `${f.route} · ${f.verdict.problem} · ${f.fuzzCase.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const byProblem = new Map<string, number>();
  for (const f of failures) byProblem.set(f.verdict.problem, (byProblem.get(f.verdict.problem) ?? 0) + 1);
  const lines = [
    `${failures.length} failing cases in ${groups.size} groups (${[...byProblem.entries()].map(([p, n]) => `${p}: ${n}`).join(', ')}):`,
  ];
  for (const [key, list] of [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const first = list[0] as Failure;
    lines.push(`- ${key} × ${list.length}`);
    lines.push(`    ${reproduction(first.fuzzCase)}`);
    lines.push(`    → ${first.answer.error === undefined ? first.answer.status : 'no answer'} ${first.verdict.detail}`);
  }
  return lines.join('\n');
}
