import type { ReportableExchange } from './item.ts';

export interface Traffic {
  incoming: number;
  outgoing: number;
}

export type TsrSubtotalType = 'PerTP' | 'PerSP-DT-PR' | 'PerSP-DT-PR-CC';

export interface TsrSubtotal extends Traffic {
  type: TsrSubtotalType;
  transportProfile?: string;
  /** the other Access Point: C2 of an incoming document, C3 of an outgoing one */
  serviceProvider?: string;
  documentTypeId?: string;
  processId?: string;
  senderCountry?: string;
  receiverCountry?: string;
}

export interface TsrCounts {
  total: Traffic;
  /** empty when nothing moved (a zero report has the total only) */
  subtotals: TsrSubtotal[];
}

type Keys = Omit<TsrSubtotal, keyof Traffic | 'type'>;

/**
 * The TSR of a month: every document counted once in the total and once in each subtotal type
 * (so each type sums to the total, SCH-TSR-04/05/08/09/12). The country subtotal (C1 and C4
 * countries) counts incoming documents only: a sending Access Point does not know corner 4's
 * country (SCH-TSR-13 was withdrawn in 1.0.1 for that reason). `ownSeat` stands for the other
 * Access Point when there was none but this one (the sandbox loop).
 */
export function transactionStatistics(exchanges: readonly ReportableExchange[], ownSeat: string): TsrCounts {
  const sp = (e: ReportableExchange) => e.peer_ap ?? ownSeat;
  const groupings: [TsrSubtotalType, (e: ReportableExchange) => Keys | null][] = [
    ['PerTP', (e) => ({ transportProfile: e.transport_profile })],
    ['PerSP-DT-PR', (e) => ({ serviceProvider: sp(e), documentTypeId: e.document_type_id, processId: e.process_id })],
    ['PerSP-DT-PR-CC', (e) => e.direction === 'received' && e.c4_country !== null
      ? { serviceProvider: sp(e), documentTypeId: e.document_type_id, processId: e.process_id, senderCountry: e.c1_country, receiverCountry: e.c4_country }
      : null],
  ];
  const subtotals: TsrSubtotal[] = [];
  for (const [type, keysOf] of groupings) {
    const groups = new Map<string, TsrSubtotal>();
    for (const exchange of exchanges) {
      const keys = keysOf(exchange);
      if (keys === null) continue;
      const id = JSON.stringify(keys);
      const subtotal = groups.get(id) ?? { type, ...keys, incoming: 0, outgoing: 0 };
      if (exchange.direction === 'received') subtotal.incoming += 1;
      else subtotal.outgoing += 1;
      groups.set(id, subtotal);
    }
    subtotals.push(...[...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, s]) => s));
  }
  const incoming = exchanges.filter((e) => e.direction === 'received').length;
  return { total: { incoming, outgoing: exchanges.length - incoming }, subtotals };
}
