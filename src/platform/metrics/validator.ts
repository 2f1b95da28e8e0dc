import type { Validator, ValidatorSource } from '../validation/index.ts';
import type { Metrics } from './metrics.ts';

/**
 * The validator as the modules get it, timed: each stage of each document (the report's own
 * timings) and the documents waiting for or in the pool. The engine itself is untouched.
 */
export function timedValidator(source: ValidatorSource, metrics: Pick<Metrics, 'validationStage' | 'validationsInFlight'>): ValidatorSource {
  // one wrapper per engine, so every caller holds the same object, as with the engine itself
  const wrappers = new WeakMap<Validator, Validator>();
  return async () => {
    const validator = await source();
    const known = wrappers.get(validator);
    if (known) return known;
    const wrapped: Validator = {
      get schemasAvailable() {
        return validator.schemasAvailable;
      },
      close: () => validator.close(),
      async validate(xml, options) {
        metrics.validationsInFlight.inc();
        try {
          const report = await validator.validate(xml, options);
          for (const [stage, ms] of Object.entries(report.timings_ms)) if (typeof ms === 'number') metrics.validationStage.observe({ stage }, ms / 1000);
          return report;
        } finally {
          metrics.validationsInFlight.dec();
        }
      },
    };
    wrappers.set(validator, wrapped);
    return wrapped;
  };
}
