import type { ReportableExchange } from './item.ts';

/** End users counted in one set (EUSR 1.1): distinct end users that sent, received, and did either. */
export interface EndUserCounts {
  sending: number;
  receiving: number;
  sendingOrReceiving: number;
}

export type EusrSubsetType = 'PerDT-PR' | 'PerDT-PR-EUC' | 'PerDT-EUC' | 'PerEUC';

export interface EusrSubset extends EndUserCounts {
  type: EusrSubsetType;
  /** present per the type: DT (document type), PR (process), CC (end user country) */
  documentTypeId?: string;
  processId?: string;
  country?: string;
}

export interface EusrCounts {
  fullSet: EndUserCounts;
  /** empty when nothing moved (a zero report has the full set only) */
  subsets: EusrSubset[];
}

function count(exchanges: readonly ReportableExchange[]): EndUserCounts {
  const sending = new Set(exchanges.filter((e) => e.direction === 'sent').map((e) => e.end_user_id));
  const receiving = new Set(exchanges.filter((e) => e.direction === 'received').map((e) => e.end_user_id));
  return { sending: sending.size, receiving: receiving.size, sendingOrReceiving: new Set([...sending, ...receiving]).size };
}

const SUBSET_KEYS: Record<EusrSubsetType, (e: ReportableExchange) => Omit<EusrSubset, keyof EndUserCounts | 'type'>> = {
  'PerDT-PR': (e) => ({ documentTypeId: e.document_type_id, processId: e.process_id }),
  'PerDT-PR-EUC': (e) => ({ documentTypeId: e.document_type_id, processId: e.process_id, country: e.end_user_country }),
  'PerDT-EUC': (e) => ({ documentTypeId: e.document_type_id, country: e.end_user_country }),
  PerEUC: (e) => ({ country: e.end_user_country }),
};

/**
 * The EUSR of a month: each end user counted once per set however many documents it exchanged,
 * in the full set and in every subset its documents fall in. A subset exists only where some end
 * user exchanged something (SCH-EUSR-36: an empty subset must be omitted); all four subset types
 * are given, in a stable order (by type, then keys).
 */
export function endUserStatistics(exchanges: readonly ReportableExchange[]): EusrCounts {
  const subsets: EusrSubset[] = [];
  for (const type of Object.keys(SUBSET_KEYS) as EusrSubsetType[]) {
    const groups = new Map<string, { keys: ReturnType<(typeof SUBSET_KEYS)[EusrSubsetType]>; members: ReportableExchange[] }>();
    for (const exchange of exchanges) {
      const keys = SUBSET_KEYS[type](exchange);
      const id = JSON.stringify(keys);
      const group = groups.get(id) ?? { keys, members: [] };
      group.members.push(exchange);
      groups.set(id, group);
    }
    const sorted = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [, { keys, members }] of sorted) subsets.push({ type, ...keys, ...count(members) });
  }
  return { fullSet: count(exchanges), subsets };
}
