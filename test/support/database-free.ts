/**
 * `npm test` runs every suite twice in CI: on PGlite, and with DATABASE_URL on Postgres. A suite
 * that never touches a database would only repeat itself the second time (the compiled engine's
 * equivalence takes minutes), so it runs in the PGlite pass only.
 */
export const describeDatabaseFree: Mocha.SuiteFunction | Mocha.PendingSuiteFunction = process.env.DATABASE_URL ? describe.skip : describe;
