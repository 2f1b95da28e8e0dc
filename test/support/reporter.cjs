// Mocha's spec output, plus one plain closing line ("N passed, N failed, N skipped") that CI
// tooling reads in any language. Plain CommonJS: mocha loads reporters before any TS hook.
const Mocha = require('mocha');

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`\nmocha: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = SpecWithTotals;
