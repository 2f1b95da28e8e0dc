// Mocha's spec output, plus one plain closing line ("N passed, N failed, N skipped") that CI
// tooling reads in any language, and the slowest test files with their seconds: CI must stay
// under 30 minutes, and this is where to look when it grows. Plain CommonJS: mocha loads
// reporters before any TS hook.
const Mocha = require('mocha');
const path = require('node:path');

const SLOWEST_SHOWN = 15;

class SpecWithTotals extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map(); // top-level suite -> ms at its start
    const secondsByFile = new Map();
    const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } = Mocha.Runner.constants;
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.parent && suite.parent.root) started.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      const at = started.get(suite);
      if (at === undefined) return;
      const file = suite.file ? path.relative(process.cwd(), suite.file) : suite.title;
      secondsByFile.set(file, (secondsByFile.get(file) ?? 0) + (Date.now() - at) / 1000);
    });
    runner.once(EVENT_RUN_END, () => {
      const slowest = [...secondsByFile].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN);
      process.stdout.write(`\nslowest files:\n${slowest.map(([f, s]) => `  ${s.toFixed(1).padStart(7)} s  ${f}`).join('\n')}\n`);
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`\nmocha: ${passes} passed, ${failures} failed, ${pending} skipped\n`);
    });
  }
}

module.exports = SpecWithTotals;
