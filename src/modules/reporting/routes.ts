import { DomainError } from '../../../commands/shared/domain-error.ts';
import { reportMonths, type ReportRow } from '../../../projections/peppol-report-months/queries.ts';
import { ErrorBody } from '../../../schemas/common/index.ts';
import { PeppolReportingMonths, PeppolReportingQuery, type PeppolReportStatus } from '../../../schemas/reporting.ts';
import { defineRoute, type Route } from '../../doors/native/route.ts';
import type { Core } from '../../platform/core.ts';
import { mayReadMetrics } from '../../platform/metrics/endpoint.ts';

const status = ({ month: _m, kind: _k, ...report }: ReportRow): PeppolReportStatus => report;

/**
 * The operator's view of Peppol Reporting. The reports are the service provider's, about every
 * organisation at once, so no organisation's credentials show them: the route admits whom
 * /metrics admits (METRICS_TOKEN as a bearer token, or, unset, loopback clients only), the one
 * operator credential the service has.
 */
export function reportingRoutes(deps: Pick<Core, 'readModels' | 'config'>): Route[] {
  return [
    defineRoute({
      method: 'GET', path: '/operator/peppol-reporting', operationId: 'listPeppolReports', tags: ['operator'], auth: 'public',
      summary: 'Peppol Reporting: each month’s EUSR and TSR with its status (operator only)',
      description: [
        'Every month, from the 1st to the 15th (UTC), the service builds the End User Statistics Report and the Transaction Statistics Report of the month before,',
        'checks each with its official XSD and Schematron, and sends it as a Peppol message to the reporting receiver (PEPPOL_REPORTING_RECEIVER, OpenPeppol’s by default).',
        'This lists the months built, newest first, with each report’s status and OpenPeppol’s MLS. Operators only: `Authorization: Bearer <METRICS_TOKEN>`,',
        'or, with METRICS_TOKEN unset, a client on loopback; anyone else 403 `operator_only`. API keys and user tokens do not admit: these reports cover every organisation.',
      ].join(' '),
      query: PeppolReportingQuery,
      responses: {
        200: { description: 'the months', schema: PeppolReportingMonths },
        403: { description: '`operator_only`', schema: ErrorBody },
      },
      async handle({ query, headers, ip }) {
        if (!mayReadMetrics(deps.config.metricsToken, ip, headers.authorization)) {
          throw new DomainError('operator_only', 'this route is for the operator of the service: send METRICS_TOKEN as a bearer token (or call from loopback when it is unset)');
        }
        const rows = await reportMonths(deps.readModels, query.months ?? 24);
        const months = [...new Set(rows.map((r) => r.month))];
        const of = (month: string, kind: 'eusr' | 'tsr') => {
          const row = rows.find((r) => r.month === month && r.kind === kind);
          return row ? status(row) : null;
        };
        return { status: 200, body: { items: months.map((month) => ({ month, eusr: of(month, 'eusr'), tsr: of(month, 'tsr') })) } };
      },
    }),
  ];
}
