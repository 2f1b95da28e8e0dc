import type { SchemasAvailable } from '../validation/types.ts';
import type { ValidatorSource } from '../validation/index.ts';

/**
 * Whether the service can check invoices: `compiling` while the rule sets compile (seconds;
 * with the SaxonJS engine about a minute on a machine's first start), `ready` once every rule set runs, `unavailable` when one
 * is missing (no artifacts: invoice creates answer 503 code_lists_unavailable and nothing is
 * called valid). `not_started` until the first use or the background start.
 */
type ValidationState = 'not_started' | 'compiling' | 'ready' | 'unavailable';

export interface ValidationStage {
  state: ValidationState;
  /** the rule sets that cannot run (xsd, peppol, slovak, code_lists), when unavailable */
  missing: string[];
  /** seconds the compile took, once it is over */
  seconds: number | null;
}

const MISSING_NAMES: Record<keyof SchemasAvailable, string> = { xsd_invoice: 'xsd', schematron_peppol: 'peppol', schematron_slovak: 'slovak' };

/** The validator source, telling as it goes whether the validation stage is ready. */
export function trackedValidator(source: ValidatorSource, codeListsLoaded: boolean, onChange: (stage: ValidationStage) => void = () => undefined) {
  let stage: ValidationStage = codeListsLoaded ? { state: 'not_started', missing: [], seconds: null } : { state: 'unavailable', missing: ['code_lists'], seconds: null };
  let started: Promise<unknown> | undefined;
  const set = (next: ValidationStage) => {
    stage = next;
    onChange(stage);
  };
  const tracked: ValidatorSource = () => {
    const made = source();
    if (!started) {
      const t0 = performance.now();
      const base = codeListsLoaded ? [] : ['code_lists'];
      if (stage.state === 'not_started') set({ ...stage, state: 'compiling' });
      started = made.then(
        (validator) => {
          const missing = [...base, ...Object.entries(validator.schemasAvailable).filter(([, ok]) => !ok).map(([name]) => MISSING_NAMES[name as keyof SchemasAvailable])];
          set({ state: missing.length === 0 ? 'ready' : 'unavailable', missing, seconds: Math.round((performance.now() - t0) / 100) / 10 });
        },
        () => set({ state: 'unavailable', missing: [...base, 'xsd', 'peppol', 'slovak'], seconds: Math.round((performance.now() - t0) / 100) / 10 }),
      );
    }
    return made;
  };
  return { source: tracked, stage: () => stage };
}
