import { appendFileSync, writeSync } from 'node:fs';
import { seededRandom as seeded } from '../seeded-random.ts';

/**
 * A fault hook for the crash-effects campaign (campaigns/crash-effects): it kills the process with
 * SIGKILL right after a side effect happened (a Peppol transmission, an FS submission, a webhook
 * POST) and before its outcome is recorded, the worst moment for duplicates. Off unless
 * FAULT_KILL_AFTER_EFFECT is set; off, `afterEffect` is a function that does nothing.
 *
 *   FAULT_KILL_AFTER_EFFECT=<effect>:<when>[,<effect>:<when>…]   effect: a name below, or * for all
 *     <when> = a probability in (0, 1] (each such effect dies with it), or #n (the n-th such effect of this process)
 *   FAULT_SEED=<integer>          seeds the probabilities (default 1); give each restart its own
 *   FAULT_KILL_LOG=<file>         a line per kill is appended there (and always written to stderr)
 */
export const EFFECTS = ['peppol-send', 'fs-submit', 'sapi-peppol-send', 'sapi-fs-submit', 'webhook-post'] as const;
export type Effect = (typeof EFFECTS)[number];

type Rule = { kind: 'probability'; p: number } | { kind: 'nth'; n: number };

/** Parses FAULT_KILL_AFTER_EFFECT; throws on a spec it cannot read, so a campaign never runs unarmed by a typo. */
export function parseFaultSpec(spec: string): Map<Effect, Rule> {
  const rules = new Map<Effect, Rule>();
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name = '', when = ''] = part.split(':');
    const effects = name === '*' ? [...EFFECTS] : [name as Effect];
    if (!effects.every((e) => (EFFECTS as readonly string[]).includes(e))) throw new Error(`FAULT_KILL_AFTER_EFFECT: unknown effect ${name} (known: ${EFFECTS.join(', ')}, *)`);
    let rule: Rule;
    if (/^#\d+$/.test(when) && Number(when.slice(1)) >= 1) rule = { kind: 'nth', n: Number(when.slice(1)) };
    else if (/^(0?\.\d+|1(\.0*)?)$/.test(when) && Number(when) > 0) rule = { kind: 'probability', p: Number(when) };
    else throw new Error(`FAULT_KILL_AFTER_EFFECT: ${part}: expected <effect>:<probability in (0, 1]> or <effect>:#<n>`);
    for (const effect of effects) rules.set(effect, rule);
  }
  return rules;
}

type AfterEffect = (effect: Effect, detail?: string) => void;

const noop: AfterEffect = () => undefined;

/** The hook an environment asks for: `noop` when FAULT_KILL_AFTER_EFFECT is unset or empty. `kill` and `say` (stderr) are replaceable for tests. */
export function faultHook(
  env: NodeJS.ProcessEnv,
  kill: () => void = () => process.kill(process.pid, 'SIGKILL'),
  say: (line: string) => void = (line) => writeSync(2, line),
): AfterEffect {
  const spec = env.FAULT_KILL_AFTER_EFFECT?.trim();
  if (!spec) return noop;
  const rules = parseFaultSpec(spec);
  const random = seeded(Number(env.FAULT_SEED ?? 1) || 1);
  const seen = new Map<Effect, number>();
  const log = env.FAULT_KILL_LOG;
  return (effect, detail = '') => {
    const rule = rules.get(effect);
    if (!rule) return;
    const count = (seen.get(effect) ?? 0) + 1;
    seen.set(effect, count);
    const dies = rule.kind === 'nth' ? count === rule.n : random() < rule.p;
    if (!dies) return;
    const line = `${JSON.stringify({ fault: 'SIGKILL', after: effect, detail, pid: process.pid, at: new Date().toISOString() })}\n`;
    try {
      if (log) appendFileSync(log, line);
      say(line);
    } finally {
      kill();
    }
  };
}

/** Called where a side effect and the record of its outcome meet: right after the effect, before the record. */
export const afterEffect: AfterEffect = faultHook(process.env);
