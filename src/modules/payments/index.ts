// The payments module's door: what other modules, the front doors and the composition root may use of it.
export { freshSettlement, settledFrom, type SettlementFields, settlementReader, type SettlementReader } from './settlement.ts';
