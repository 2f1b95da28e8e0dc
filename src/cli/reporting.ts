import { reportPeriod } from '../../commands/reporting/period.ts';
import { PEPPOL_REPORTING } from '../../projections/peppol-reporting/queries.ts';
import { createReportValidator, previewReports, type ReportKind } from '../modules/reporting/index.ts';
import { loadConfig } from '../platform/config.ts';
import { createLogger } from '../platform/logging.ts';
import pino from 'pino';
import { openService } from '../service.ts';

const usage = 'usage: npm run cli -- reporting preview --month YYYY-MM';

/**
 * `reporting preview --month 2026-11`: the month's EUSR, then its TSR, as XML on stdout, built from
 * what the Access Point of the configured database (DATA_DIR or DATABASE_URL) sent and received in
 * that UTC month (zero reports when nothing moved). Each is checked with its official XSD and
 * Schematron first; findings go to stderr, and a fatal one makes the exit code 1. Nothing is sent
 * or kept. The reporting read model is brought up to date before reading (on the embedded default
 * the service must be stopped: PGlite has one owner).
 */
export async function run(args: string[]): Promise<number> {
  const [action, flag, month] = args;
  const period = action === 'preview' && flag === '--month' && month !== undefined && args.length === 3 ? reportPeriod(month) : null;
  if (period === null) {
    console.error(usage);
    return 2;
  }
  const config = loadConfig();
  // the service's log goes to stderr: stdout is the two reports, for a pipe or a file
  const log = createLogger(config.logLevel, pino.destination(2));
  const services = await openService(config, { runProjections: false, runReactors: false, log });
  try {
    const projector = services.projections.projectors.find((p) => p.name === PEPPOL_REPORTING);
    if (!projector) throw new Error('the peppol-reporting read model is not wired');
    await services.projections.catchUp(projector);
    const validator = await createReportValidator({ artifactsDir: config.validationArtifactsDir });
    let checked;
    try {
      checked = await previewReports(services.readModels, period, config.delivery.serviceProviderId, validator);
    } finally {
      validator.close();
    }
    const { reports, checks } = checked;
    let fatal = false;
    for (const kind of ['eusr', 'tsr'] as ReportKind[]) {
      for (const f of [...checks[kind].errors, ...checks[kind].warnings]) console.error(`${kind.toUpperCase()} ${f.flag} ${f.rule} ${f.location}: ${f.message}`);
      if (checks[kind].valid === false) fatal = true;
    }
    process.stdout.write(reports.eusr.endsWith('\n') ? reports.eusr : `${reports.eusr}\n`);
    process.stdout.write(reports.tsr.endsWith('\n') ? reports.tsr : `${reports.tsr}\n`);
    return fatal ? 1 : 0;
  } finally {
    await services.close();
  }
}
